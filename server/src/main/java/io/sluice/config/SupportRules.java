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
        if (key.name().equals("syslog") && ((Long) value) != 0) {
            return Optional.of("syslog=" + value + " is accepted but Sluice does not log to syslog yet");
        }
        return Optional.empty();
    }
}
