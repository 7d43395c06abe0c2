package io.sluice.hosts;

import io.sluice.config.ReplicaChecks;
import io.sluice.config.ServerAddress;

/**
 * One host's health with HAProxy's hysteresis: {@code fall} bad checks in a row take it out of
 * service (draining when it answers but lags, down when it does not answer), {@code rise} good
 * ones bring it back. A host starts up, as HAProxy's servers do. Event loop only.
 */
public final class HostHealth {
    private final ServerAddress address;
    private HostState state = HostState.UP;
    private HostRole role = HostRole.UNKNOWN;
    private int good;
    private int bad;
    private Check last;
    private long lastCheckMillis;

    HostHealth(ServerAddress address) {
        this.address = address;
    }

    /**
     * Takes one check.
     *
     * @param wallMillis when, for display (SHOW HOSTS last_check)
     */
    void record(Check c, ReplicaChecks rules, long wallMillis) {
        last = c;
        lastCheckMillis = wallMillis;
        if (c.reachable()) {
            role = c.role();
        }
        if (isGood(c, rules)) {
            good++;
            bad = 0;
            if (state != HostState.UP && good >= rules.rise()) {
                state = HostState.UP;
            }
            return;
        }
        bad++;
        good = 0;
        HostState out = c.reachable() ? HostState.DRAINING : HostState.DOWN;
        if (state != HostState.UP || bad >= rules.fall()) {
            state = out;
        }
    }

    private static boolean isGood(Check c, ReplicaChecks rules) {
        if (!c.reachable()) {
            return false;
        }
        if (c.role() == HostRole.PRIMARY) {
            return true;
        }
        double max = rules.maxLag().map(d -> d.toNanos() / 1e9).orElse(Double.POSITIVE_INFINITY);
        return !Double.isNaN(c.lagSeconds()) && c.lagSeconds() <= max;
    }

    public ServerAddress address() {
        return address;
    }

    public HostState state() {
        return state;
    }

    public HostRole role() {
        return role;
    }

    /** The last check, or null before the first. */
    public Check last() {
        return last;
    }

    public long lastCheckMillis() {
        return lastCheckMillis;
    }
}
