package io.sluice.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A network namespace of the test's own, joined to this one by a veth pair: a "remote host"
 * whose link the test can cut. {@link #innerAddress()} is the namespace's end (run a server
 * there with {@link #wrap}), {@link #hostAddress()} this side's end; both are link-local
 * (169.254.0.0/16, never 169.254.169.x), so nothing outside the pair is ever addressed.
 *
 * <p>{@link #partition()} makes the link drop every packet both ways without telling either
 * side (a {@code pfifo} qdisc of length 0 on each end: the kernel here has no netem and no
 * netfilter), as a failed switch or a firewall would; {@link #heal()} restores it. Closing heals,
 * deletes the namespace (the veth pair goes with it) and the host end if it is still there.
 * Stop the processes started inside first. A JVM killed before it closed one leaves a
 * namespace named after its pid; the next {@link #create()} removes those of dead JVMs.
 * Needs root and iproute2 ({@link #unavailable()} says why not). Thread-safe.
 */
public final class NetNamespace implements AutoCloseable {
    private static final String PREFIX = "sluice-";
    private static final Pattern OWNED = Pattern.compile(PREFIX + "(\\d+)-\\d+");
    private static final AtomicInteger COUNT = new AtomicInteger();
    private static final long PID = ProcessHandle.current().pid();

    private final String name;
    private final String hostIf;
    private final String innerIf;
    private final String hostAddress;
    private final String innerAddress;
    private final long reaperId;
    private boolean closed;

    private NetNamespace(int n, int subnet) {
        name = PREFIX + PID + "-" + n;
        hostIf = "sl" + (PID % 10_000_000) + "n" + n + "h";
        innerIf = "sl" + (PID % 10_000_000) + "n" + n + "i";
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
        for (String tool : List.of("ip", "tc")) {
            if (!Files.isExecutable(Path.of("/usr/sbin", tool)) && !Files.isExecutable(Path.of("/sbin", tool))) {
                return Optional.of("no " + tool + " (iproute2) on this machine");
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

    private void setUp() {
        ip("netns", "add", name).requireSuccess();
        ip("link", "add", hostIf, "type", "veth", "peer", "name", innerIf).requireSuccess();
        ip("link", "set", innerIf, "netns", name).requireSuccess();
        ip("addr", "add", hostAddress + "/30", "dev", hostIf).requireSuccess();
        ip("link", "set", hostIf, "up").requireSuccess();
        ip("-n", name, "addr", "add", innerAddress + "/30", "dev", innerIf).requireSuccess();
        ip("-n", name, "link", "set", innerIf, "up").requireSuccess();
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

    /** From now on the link silently drops every packet, both ways. */
    public synchronized void partition() {
        tc("replace", hostIf, false).requireSuccess();
        tc("replace", innerIf, true).requireSuccess();
    }

    /** The link carries packets again. */
    public synchronized void heal() {
        tc("del", hostIf, false);
        tc("del", innerIf, true);
    }

    private ProcessResult tc(String verb, String dev, boolean inside) {
        List<String> cmd = new ArrayList<>(List.of("tc", "qdisc", verb, "dev", dev, "root"));
        if (!verb.equals("del")) {
            cmd.addAll(List.of("pfifo", "limit", "0"));
        }
        return ProcessRunner.of(inside ? wrap(cmd) : cmd).timeout(Duration.ofSeconds(10)).run();
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
                String ifName = "sl" + (Long.parseLong(m.group(1)) % 10_000_000) + "n"
                        + m.group().substring(m.group().lastIndexOf('-') + 1) + "h";
                ip("link", "del", ifName);
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
