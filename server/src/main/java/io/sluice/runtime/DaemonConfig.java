package io.sluice.runtime;

import java.nio.file.Path;

/**
 * The few {@code [pgbouncer]} settings the process shell needs before the server starts:
 * {@code pidfile} and {@code logfile} (null when unset or empty), {@code syslog}, and
 * {@code user}, the OS user to run as (null when unset or empty; {@code -u} takes precedence).
 */
public record DaemonConfig(Path pidfile, Path logfile, boolean syslog, String user) {
    public static final DaemonConfig NONE = new DaemonConfig(null, null, false, null);

    public DaemonConfig(Path pidfile, Path logfile, boolean syslog) {
        this(pidfile, logfile, syslog, null);
    }
}
