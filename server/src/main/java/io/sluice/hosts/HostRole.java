package io.sluice.hosts;

import java.util.Locale;

/** What the last check found a host to be ({@code pg_is_in_recovery()}). */
public enum HostRole {
    UNKNOWN, PRIMARY, REPLICA;

    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }
}
