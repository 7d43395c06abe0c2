package io.sluice.config;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One {@code [users]} entry; empty optionals inherit the global (or database) setting.
 * Timeouts are integer seconds in PgBouncer.
 */
public record UserEntry(
        String name,
        Optional<PoolMode> poolMode,
        OptionalInt poolSize,
        OptionalInt reservePoolSize,
        OptionalInt maxUserConnections,
        OptionalInt maxUserClientConnections,
        Optional<Duration> queryTimeout,
        Optional<Duration> idleTransactionTimeout,
        Optional<Duration> transactionTimeout,
        Optional<Duration> clientIdleTimeout) {

    public UserEntry {
        Objects.requireNonNull(name, "name");
    }
}
