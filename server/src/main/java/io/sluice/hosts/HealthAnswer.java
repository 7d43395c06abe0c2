package io.sluice.hosts;

/**
 * What the health endpoint tells a load balancer about a database (or one host of it): an
 * HAProxy agent-check reply and an HTTP status. Pure.
 *
 * @param agentReply the agent-check line: {@code up ready 100%}, {@code drain 0%} (HAProxy keeps
 *                   the sessions it has and sends no new ones) or {@code down}, with a {@code #}
 *                   comment saying why
 * @param httpStatus 200 in service, 503 not, 404 no such database or host
 */
public record HealthAnswer(String agentReply, int httpStatus, String text) {
    public static final HealthAnswer UNKNOWN = new HealthAnswer("down # no such database or host", 404,
            "no such database or host");

    /** A database: in service while any of its hosts may take new server connections. */
    public static HealthAnswer database(boolean anyInService) {
        return anyInService ? new HealthAnswer("up ready 100%", 200, "up")
                : new HealthAnswer("drain 0% # no host in service", 503, "no host in service");
    }

    /** One host of a database, as its checks found it ({@code inService}: may it take new servers now). */
    public static HealthAnswer host(HostHealth h, boolean inService) {
        Check c = h.last();
        String why = c == null ? "not checked yet" : !c.reachable() ? c.error()
                : h.role() == HostRole.REPLICA ? "lag " + c.lagSeconds() + " s, " + c.lagBytes() + " bytes"
                : h.role().word();
        if (h.state() == HostState.DOWN) {
            return new HealthAnswer("down # " + why, 503, "down: " + why);
        }
        if (!inService) {
            return new HealthAnswer("drain 0% # " + h.state().word() + ": " + why, 503, h.state().word() + ": " + why);
        }
        return new HealthAnswer("up ready 100% # " + why, 200, "up: " + why);
    }
}
