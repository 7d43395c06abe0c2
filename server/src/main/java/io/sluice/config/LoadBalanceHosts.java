package io.sluice.config;

import java.util.Optional;

/** {@code load_balance_hosts} of a {@code [databases]} entry with several hosts. */
public enum LoadBalanceHosts {
    /** Next host for each new server connection (PgBouncer's default). */
    ROUND_ROBIN("round-robin"),
    /** Stay on a host until it fails. */
    DISABLE("disable");

    private final String configName;

    LoadBalanceHosts(String configName) {
        this.configName = configName;
    }

    public String configName() {
        return configName;
    }

    /** Case-insensitive lookup. */
    public static Optional<LoadBalanceHosts> fromConfig(String s) {
        for (LoadBalanceHosts v : values()) {
            if (v.configName.equalsIgnoreCase(s)) {
                return Optional.of(v);
            }
        }
        return Optional.empty();
    }
}
