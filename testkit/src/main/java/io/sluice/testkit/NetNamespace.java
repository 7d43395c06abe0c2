package io.sluice.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A network namespace of the test's own, a "remote host" joined to this one through a switch
 * the test can break. {@link #innerAddress()} is the namespace's address (run a server there with
 * {@link #wrap}), {@link #hostAddress()} this side's; both are link-local (169.254.0.0/16, never
 * 169.254.169.x), so nothing outside the link is ever addressed. The switch is a bridge in a
 * second namespace, with a veth pair to each side.
 *
 * <p>{@link #partition()} makes the switch drop every packet both ways (a {@code pfifo} qdisc of
 * length 0 on its two ports: this kernel has no netem and no netfilter), so both hosts see pure
 * loss, as behind a failed switch or a firewall: no reset, no local send error (a drop at a
 * host's own qdisc would count as congestion, which TCP retries without counting keepalive
 * probes). {@link #heal()} restores it. Closing heals and deletes both namespaces (the veth
 * pairs go with them) and the host end if it is still there; stop the processes started inside
 * first. A JVM killed before it closed one leaves namespaces named after its pid; the next
 * {@link #create()} removes those of dead JVMs. Needs root and iproute2 ({@link #unavailable()}
 * says why not). Thread-safe.
 */
public final class NetNamespace implements AutoCloseable {
    private static final String PREFIX = "sluice-";
    private static final Pattern OWNED = Pattern.compile(PREFIX + "(\\d+)-(\\d+)(-sw)?");
    private static final AtomicInteger COUNT = new AtomicInteger();
    private static final long PID = ProcessHandle.current().pid();

    private final String name;
    private final String switchName;
    private final String hostIf;
    private final String hostAddress;
    private final String innerAddress;
    private final long reaperId;
    private boolean closed;

    private NetNamespace(int n, int subnet) {
        name = PREFIX + PID + "-" + n;
        switchName = name + "-sw";
        hostIf = hostIf(PID, n);
        String base = "169.254." + (subnet >> 6) + ".";
        hostAddress = base + ((subnet & 63) * 4 + 1);
        innerAddress = base + ((subnet & 63) * 4 + 2);
        reaperId = Reaper.register(this::removeQuietly);
    }

    /** Why a namespace cannot be made here (not root, no {@code ip}/{@code tc}); empty when it can. */
    public static Optional<String> unavailable() {
        if (!OsUser.isRoot()) {
            return Optional.of("network namespaces need root; this JVM runs as " + System.getProperty("user.name"));
        }
        String path = System.getenv().getOrDefault("PATH", "/usr/sbin:/usr/bin:/sbin:/bin");
        for (String tool : List.of("ip", "tc")) {
            if (Arrays.stream(path.split(":"))
                    .noneMatch(dir -> !dir.isEmpty() && Files.isExecutable(Path.of(dir, tool)))) {
                return Optional.of("no " + tool + " (iproute2) on the PATH");
            }
        }
        return Optional.empty();
    }

    /** Creates the namespace and the veth pair, both ends up, addresses set. */
    public static NetNamespace create() {
        unavailable().ifPresent(why -> {
            throw new IllegalStateException(why);
        });
        removeOrphans();
        int n = COUNT.incrementAndGet();
        // Subnets are /30s of 169.254.1-168.x picked by pid and count, skipping any in use here.
        String inUse = ip("-4", "addr", "show").stdout();
        int subnet = (int) ((PID * 61 + n * 7) % (168 * 64)) + 64;
        while (inUse.contains("169.254." + (subnet >> 6) + "." + ((subnet & 63) * 4 + 1) + "/")) {
            subnet = subnet + 1 >= 169 * 64 ? 64 : subnet + 1;
        }
        NetNamespace ns = new NetNamespace(n, subnet);
        try {
            ns.setUp();
        } catch (RuntimeException e) {
            ns.close();
            throw e;
        }
        return ns;
    }

    private static String hostIf(long pid, int n) {
        return "sl" + (pid % 10_000_000) + "n" + n + "h";
    }

    // here:hostIf <-> sw:toHost [bridge sw0] sw:toInner <-> name:eth0
    private void setUp() {
        ip("netns", "add", name).requireSuccess();
        ip("netns", "add", switchName).requireSuccess();
        ip("-n", switchName, "link", "add", "sw0", "type", "bridge").requireSuccess();
        ip("link", "add", hostIf, "type", "veth", "peer", "name", "toHost", "netns", switchName).requireSuccess();
        ip("-n", switchName, "link", "add", "toInner", "type", "veth", "peer", "name", "eth0", "netns", name)
                .requireSuccess();
        for (String port : List.of("toHost", "toInner")) {
            ip("-n", switchName, "link", "set", port, "master", "sw0").requireSuccess();
            ip("-n", switchName, "link", "set", port, "up").requireSuccess();
        }
        ip("-n", switchName, "link", "set", "sw0", "up").requireSuccess();
        ip("addr", "add", hostAddress + "/30", "dev", hostIf).requireSuccess();
        ip("link", "set", hostIf, "up").requireSuccess();
        ip("-n", name, "addr", "add", innerAddress + "/30", "dev", "eth0").requireSuccess();
        ip("-n", name, "link", "set", "eth0", "up").requireSuccess();
        ip("-n", name, "link", "set", "lo", "up").requireSuccess();
    }

    public String name() {
        return name;
    }

    /** This side's address on the link: where connections into the namespace come from. */
    public String hostAddress() {
        return hostAddress;
    }

    /** The namespace's address on the link: where a server started inside listens. */
    public String innerAddress() {
        return innerAddress;
    }

    /** The command, run inside the namespace ({@code ip netns exec}, which then execs it). */
    public List<String> wrap(List<String> command) {
        List<String> out = new ArrayList<>(List.of("ip", "netns", "exec", name));
        out.addAll(command);
        return out;
    }

    /** From now on the switch silently drops every packet, both ways. */
    public synchronized void partition() {
        tc("replace", "toHost").requireSuccess();
        tc("replace", "toInner").requireSuccess();
    }

    /** The switch forwards packets again. */
    public synchronized void heal() {
        tc("del", "toHost");
        tc("del", "toInner");
    }

    private ProcessResult tc(String verb, String port) {
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", switchName, "tc", "qdisc", verb, "dev", port,
                "root"));
        if (!verb.equals("del")) {
            cmd.addAll(List.of("pfifo", "limit", "0"));
        }
        return ProcessRunner.of(cmd).timeout(Duration.ofSeconds(10)).run();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        Reaper.unregister(reaperId);
        removeQuietly();
    }

    private void removeQuietly() {
        ip("netns", "del", name);
        ip("netns", "del", switchName);
        if (ip("link", "show", hostIf).ok()) {
            ip("link", "del", hostIf);
        }
    }

    /** Namespaces (and their host ends) left by test JVMs that no longer run. */
    private static void removeOrphans() {
        for (String line : ip("netns", "list").stdout().lines().toList()) {
            Matcher m = OWNED.matcher(line.split(" ")[0]);
            if (m.matches() && ProcessHandle.of(Long.parseLong(m.group(1))).isEmpty()) {
                ip("netns", "del", m.group());
                ip("link", "del", hostIf(Long.parseLong(m.group(1)), Integer.parseInt(m.group(2))));
            }
        }
    }

    private static ProcessResult ip(String... args) {
        List<String> cmd = new ArrayList<>(List.of("ip"));
        cmd.addAll(List.of(args));
        return ProcessRunner.of(cmd).timeout(Duration.ofSeconds(10)).run();
    }

    @Override
    public String toString() {
        return name + " (" + hostAddress + " <-> " + innerAddress + ")";
    }
}
