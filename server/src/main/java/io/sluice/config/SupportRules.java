package io.sluice.config;

import java.util.Optional;

/**
 * Which values of supported keys Sluice can actually honour. A refused value is a config
 * error ({@code not supported: key=value (...)}); some values are accepted with a warning.
 * Keys whose {@link ConfigKey#supported()} flag is false are not checked here: they only
 * produce the generic "accepted but not acted on" warning. Stateless.
 */
final class SupportRules {

    private SupportRules() {
    }

    /** An error text when Sluice cannot run with this canonical value, else empty. */
    static Optional<String> refuse(ConfigKey key, Object value) {
        switch (key.name()) {
            case "auth_type":
                if ("pam".equals(value) || "ldap".equals(value)) {
                    return Optional.of("not supported: auth_type = " + value);
                }
                return Optional.empty();
            default:
                return Optional.empty();
        }
    }

    /** A warning text (without file:line) for an accepted but partly honoured value. */
    static Optional<String> warn(ConfigKey key, Object value) {
        if (key.name().equals("syslog_facility") && SyslogFacilities.code((String) value).isEmpty()) {
            // PgBouncer quietly logs to daemon then; say so
            return Optional.of("syslog_facility=" + value + " is not a syslog facility; daemon is used");
        }
        return Optional.empty();
    }
}
