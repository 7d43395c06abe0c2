package io.sluice.runtime;

import java.nio.file.Path;

/**
 * The few {@code [pgbouncer]} settings the process shell needs before the server starts:
 * {@code pidfile} and {@code logfile} (null when unset or empty) and {@code syslog}.
 */
public record DaemonConfig(Path pidfile, Path logfile, boolean syslog) {
    public static final DaemonConfig NONE = new DaemonConfig(null, null, false);
}
