package io.sluice.config;

import java.util.Map;
import java.util.OptionalInt;

/**
 * The {@code syslog_facility} names PgBouncer knows, with syslog's codes (LOG_AUTH is 4, ...);
 * PgBouncer quietly uses daemon for any other name. Stateless.
 */
public final class SyslogFacilities {
    public static final int DAEMON = 3;

    private static final Map<String, Integer> CODES = Map.ofEntries(
            Map.entry("auth", 4), Map.entry("authpriv", 10), Map.entry("daemon", DAEMON), Map.entry("user", 1),
            Map.entry("local0", 16), Map.entry("local1", 17), Map.entry("local2", 18), Map.entry("local3", 19),
            Map.entry("local4", 20), Map.entry("local5", 21), Map.entry("local6", 22), Map.entry("local7", 23));

    private SyslogFacilities() {
    }

    /** The facility's code, or empty when syslog has no facility of that name. */
    public static OptionalInt code(String name) {
        Integer code = CODES.get(name);
        return code == null ? OptionalInt.empty() : OptionalInt.of(code);
    }

    /** The code the pooler logs with: the named facility's, else daemon's, as PgBouncer. */
    public static int codeOrDaemon(String name) {
        return code(name).orElse(DAEMON);
    }
}
