package io.sluice.hosts;

import java.util.Locale;

/** Whether a host takes new server connections. */
public enum HostState {
    /** In service. */
    UP,
    /** Reachable but over its lag limit: no new server connections, running work finishes. */
    DRAINING,
    /** Its checks fail (cannot connect or log in): no new server connections. */
    DOWN;

    /** As SHOW HOSTS, the metrics and the agent-check reply spell it. */
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }
}
