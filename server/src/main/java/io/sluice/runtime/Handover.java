package io.sluice.runtime;

import io.sluice.log.Log;
import java.util.Map;
import java.util.Optional;

/**
 * The successor's side of a handover (sluice-handover(1)): the launcher that got SIGURG started
 * this process with {@code SLUICE_HANDOVER_FROM=<its pid>}. Once the listeners are bound next
 * to the old ones (so_reuseport = 1), this process takes the pidfile over (see {@link Pidfile}),
 * becomes the systemd unit's main process and sends the old launcher SIGTERM, which it forwards
 * to its JVM: SHUTDOWN WAIT_FOR_CLIENTS, so the old process closes its listeners at once and
 * exits when its last client has left. If binding fails (no so_reuseport, a broken config) this
 * process exits before any of that and the old one keeps serving.
 */
final class Handover {
    static final String VARIABLE = "SLUICE_HANDOVER_FROM";

    private final long from;

    Handover(long from) {
        this.from = from;
    }

    /** The process to take over from, if the variable names a live one. */
    static Optional<Handover> from(Map<String, String> env) {
        String value = env.get(VARIABLE);
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        long pid = Pidfile.parse(value);
        return pid > 0 && Pidfile.isAlive(pid) ? Optional.of(new Handover(pid)) : Optional.empty();
    }

    long from() {
        return from;
    }

    /** Call once the listeners are bound and the pidfile written: READY=1 + MAINPID, then SIGTERM to the old process. */
    void takeOver(Log log, SystemdNotify systemd, long ownPid) {
        log.info("taking over from process " + from);
        systemd.readyAsMainPid(log, ownPid);
        // ProcessHandle.destroy() is kill(pid, SIGTERM), checked against the process's start time.
        boolean sent = ProcessHandle.of(from).map(ProcessHandle::destroy).orElse(false);
        if (!sent) {
            log.warning("could not send SIGTERM to process " + from + "; stop it with SHUTDOWN WAIT_FOR_CLIENTS");
        }
    }
}
