package io.sluice.testkit;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A systemd service run in a {@link ThrowawayRoot} the way systemd runs it, for machines where
 * systemd is not PID 1 (containers, CI VMs): {@code ExecStart} as the unit's {@code User} with
 * systemd's environment and default signal dispositions, {@code Type=notify} readiness through
 * a {@link DatagramInbox} ({@code systemctl start} returns when READY=1 arrives), {@code
 * ExecReload} with {@code $MAINPID}, and stop by {@code KillSignal} to the main process (what
 * {@code KillMode=mixed} and {@code process} do). The service's output goes to
 * {@code /tmp/<unit>.log} inside the root, standing in for the journal. Not thread-safe.
 */
public final class ServiceRun {
    private static final String PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

    private final ThrowawayRoot root;
    private final String name;
    private final SystemdUnit unit;
    private String mainPid;

    /** The unit {@code name} as installed in the root under /lib/systemd/system or /usr/lib/systemd/system. */
    public ServiceRun(ThrowawayRoot root, String name) {
        this.root = root;
        this.name = name;
        this.unit = SystemdUnit.parse(root.shOk("cat /lib/systemd/system/" + name + " 2>/dev/null"
                + " || cat /usr/lib/systemd/system/" + name));
    }

    public SystemdUnit unit() {
        return unit;
    }

    /** Where the service's stdout and stderr go inside the root. */
    public String logPath() {
        return "/tmp/" + name + ".log";
    }

    /**
     * Starts ExecStart and, for {@code Type=notify}, returns once READY=1 arrived (like {@code
     * systemctl start}), failing with the service's output if it did not within {@code timeout}.
     * Returns the datagram (empty for other types).
     */
    public String start(DatagramInbox notify, Duration timeout) {
        String user = unit.get("Service", "User").orElse("root");
        String exec = unit.require("Service", "ExecStart").replaceFirst("^[-@+!]+", "");
        String script = "u=" + ThrowawayRoot.quote(user) + "\n"
                + "home=$(getent passwd \"$u\" | cut -d: -f6); shell=$(getent passwd \"$u\" | cut -d: -f7)\n"
                + "( exec env -i --default-signal=INT,QUIT,TERM,HUP PATH=" + PATH + " LANG=C.UTF-8 HOME=\"$home\""
                + " USER=\"$u\" LOGNAME=\"$u\" SHELL=\"$shell\" NOTIFY_SOCKET=" + ThrowawayRoot.quote(notify.address())
                + " setpriv --reuid=\"$u\" --regid=\"$u\" --init-groups -- " + exec + " ) </dev/null >"
                + logPath() + " 2>&1 &\n"
                + "echo $!";
        notify.clear();
        mainPid = root.shOk(script).strip();
        if (!"notify".equals(unit.get("Service", "Type").orElse("simple"))) {
            return "";
        }
        try {
            return notify.await("READY=1", timeout);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; service " + (alive() ? "still running" : "exited")
                    + ", its output:\n" + log(), e);
        }
    }

    /**
     * What systemd does when a process of the unit sends {@code MAINPID=} (accepted from any
     * process in the unit's cgroup under {@code NotifyAccess=all}, e.g. a handover successor):
     * waits for such a datagram and makes that pid the main process, which stop and reload then
     * signal. Returns the new main pid.
     */
    public String awaitNewMainPid(DatagramInbox notify, Duration timeout) {
        String[] found = new String[1];
        boolean arrived = Await.poll(timeout, () -> {
            found[0] = notify.received().stream().flatMap(String::lines).filter(l -> l.startsWith("MAINPID="))
                    .map(l -> l.substring("MAINPID=".length())).filter(pid -> !pid.equals(mainPid))
                    .reduce((a, b) -> b).orElse(null);
            return found[0] != null;
        });
        if (!arrived) {
            throw new AssertionError("no MAINPID= other than " + mainPid + " within " + timeout.toSeconds()
                    + " s; service output:\n" + log());
        }
        mainPid = found[0];
        return mainPid;
    }

    /** ExecReload as the unit's user, with $MAINPID (systemd does not wait for the reload to take effect). */
    public void reload() {
        String user = unit.get("Service", "User").orElse("root");
        String exec = unit.require("Service", "ExecReload").replace("$MAINPID", mainPid).replace("${MAINPID}", mainPid);
        root.shOk("setpriv --reuid=" + ThrowawayRoot.quote(user) + " --regid=" + ThrowawayRoot.quote(user)
                + " --init-groups -- " + exec);
    }

    /** KillSignal (default SIGTERM) to the main process, then waits until it has exited. */
    public void stop(Duration timeout) {
        String signal = unit.get("Service", "KillSignal").orElse("SIGTERM").replaceFirst("^SIG", "");
        root.shOk("kill -" + signal + " " + mainPid);
        if (!Await.poll(timeout, () -> !alive())) {
            throw new AssertionError(name + " (pid " + mainPid + ") still runs " + timeout.toSeconds() + " s after SIG"
                    + signal + "; its output:\n" + log());
        }
    }

    /** True while the main process runs (an exited one may linger as a zombie: the namespace's init never reaps). */
    public boolean alive() {
        return alive(mainPid);
    }

    /** True while process {@code pid} of the root runs (not a zombie). */
    public boolean alive(String pid) {
        String state = root.sh("cut -d' ' -f3 /proc/" + pid + "/stat 2>/dev/null").out();
        return !state.isEmpty() && !state.equals("Z") && !state.equals("X");
    }

    public String mainPid() {
        return mainPid;
    }

    /** The command lines of the main process and its children, e.g. to see the JVM's options. */
    public List<String> commandLines() {
        String out = root.shOk("for p in " + mainPid + " $(cat /proc/" + mainPid + "/task/*/children 2>/dev/null); do"
                + " tr '\\0' ' ' < /proc/$p/cmdline; echo; done");
        return Arrays.stream(out.split("\n")).map(String::strip).filter(s -> !s.isEmpty()).collect(Collectors.toList());
    }

    /** What the service wrote to stdout and stderr so far. */
    public String log() {
        return root.sh("cat " + logPath()).stdout();
    }
}
