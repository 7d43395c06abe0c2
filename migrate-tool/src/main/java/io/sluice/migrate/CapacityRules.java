package io.sluice.migrate;

import io.sluice.config.ConfigSnapshot;
import java.util.List;

/**
 * The capacity rules of the pressure design (docs/pressure.md, "Tuning rules"),
 * applied to a loaded config and, when known, to a server's connection budget. Adds risky
 * combinations and recommended values to a report. Stateless.
 */
final class CapacityRules {
    /** Share of (max_connections − superuser_reserved_connections) the pools may plan to use. */
    static final double HEADROOM = 0.8;

    private CapacityRules() {
    }

    /** Rules that need only the config. */
    static void applyConfigOnly(ConfigSnapshot snap, List<PoolDemand> demand, Report r) {
        var s = snap.settings();
        long wait = s.nanos("query_wait_timeout");
        long reserveWait = s.nanos("reserve_pool_timeout");
        if (wait > 0 && wait < reserveWait) {
            r.add(Severity.WARNING, "risky", "query_wait_timeout", "",
                    "query_wait_timeout (" + s.format("query_wait_timeout") + " s) < reserve_pool_timeout ("
                    + s.format("reserve_pool_timeout") + " s): clients give up before a reserve connection "
                    + "or a database permit can be granted, and see wait timeouts instead of the clearer error");
            r.recommend(new Recommendation("query_wait_timeout", s.format("query_wait_timeout"),
                    s.format("reserve_pool_timeout") + " or more", "must not be below reserve_pool_timeout"));
        }
        int creates = snap.maxParallelCreates();
        int smallest = demand.stream().flatMap(d -> d.poolSizes().stream()).filter(x -> x > 0)
                .min(Integer::compare).orElse(snap.defaultPoolSize());
        int limit = Math.max(1, smallest / 4);
        if (creates > smallest / 4.0) {
            r.add(Severity.WARNING, "risky", "scaling_max_parallel_creates", "",
                    "scaling_max_parallel_creates = " + creates + " > pool_size / 4 of the smallest pool ("
                    + smallest + " / 4): a burst can spend most of that pool's connections on connects in flight");
            r.recommend(new Recommendation("scaling_max_parallel_creates", Integer.toString(creates),
                    Integer.toString(limit), "≤ pool_size / 4 of the smallest pool (" + smallest + ")"));
        }
        for (PoolDemand d : demand) {
            int reserve = d.largestReserve();
            if (d.maxDb() > 0 && reserve > 0.25 * d.maxDb()) {
                int rec = (int) Math.floor(0.25 * d.maxDb());
                r.add(Severity.WARNING, "risky", "reserve_pool_size", "database " + d.database(),
                        "reserve_pool_size = " + reserve + " > 25 % of max_db_connections = " + d.maxDb());
                r.recommend(new Recommendation("reserve_pool_size (database " + d.database() + ")",
                        Integer.toString(reserve), Integer.toString(rec), "≤ 0.25 × max_db_connections"));
            }
        }
        if (snap.reservePoolSize() > 0 || demand.stream().anyMatch(d -> d.largestReserve() > 0)) {
            r.add(Severity.INFO, "capacity", "reserve_pool_timeout", "",
                    "keep reserve_pool_timeout (" + s.format("reserve_pool_timeout")
                    + " s) at least 2 × the p99 query latency, so the reserve serves bursts, not slow queries");
        }
        for (PoolDemand d : demand) {
            r.add(Severity.INFO, "capacity", "", "database " + d.database(),
                    "up to " + d.ceiling() + " server connections to " + d.hostPort() + " (" + d.pools()
                    + (d.assumedPool() ? " pool assumed: no users known" : " pool(s)") + " × pool_size "
                    + d.poolSizes() + (d.maxDb() > 0 ? ", capped by max_db_connections " + d.maxDb() : "")
                    + (d.largestReserve() > 0 ? ", + reserve " + d.reserves() + " per pool" : "")
                    + ")");
        }
    }

    /**
     * Rules against one server's budget: {@code demand} are the databases living on it.
     * Reports the capacity error with the figures and suggests max_db_connections per database.
     */
    static void applyServer(ConfigSnapshot snap, String server, int maxConnections, int reserved,
                            List<PoolDemand> demand, Report r) {
        int budget = maxConnections - reserved;
        int allowed = (int) Math.floor(HEADROOM * budget);
        int total = demand.stream().mapToInt(PoolDemand::ceiling).sum();
        int pools = demand.stream().mapToInt(PoolDemand::pools).sum();
        StringBuilder parts = new StringBuilder();
        for (PoolDemand d : demand) {
            parts.append(parts.length() == 0 ? "" : ", ").append(d.database()).append(": ").append(d.ceiling());
        }
        String figures = "Σ pool_size = " + total + " (" + parts + ") against max_connections " + maxConnections
                + " − superuser_reserved_connections " + reserved + " = " + budget + ", 80 % of which is " + allowed;
        if (total > allowed) {
            r.add(Severity.ERROR, "capacity", "", server, "pools may open more server connections than the "
                    + "server should give: " + figures);
            for (PoolDemand d : demand) {
                int share = Math.max(1, (int) Math.floor((double) allowed * d.ceiling() / total));
                r.recommend(new Recommendation("max_db_connections (database " + d.database() + ")",
                        Integer.toString(d.maxDb()), Integer.toString(share),
                        "its share of 80 % of " + budget + " = " + allowed + " on " + server));
            }
        } else {
            r.add(Severity.INFO, "capacity", "", server, "fits: " + figures);
        }
        if (pools > 0) {
            int creates = snap.maxParallelCreates();
            int limit = Math.max(1, budget / (10 * pools));
            if (creates > limit) {
                r.add(Severity.WARNING, "risky", "scaling_max_parallel_creates", server,
                        "scaling_max_parallel_creates = " + creates + " > (max_connections − reserved) / (10 × pools)"
                        + " = " + budget + " / (10 × " + pools + ")");
                r.recommend(new Recommendation("scaling_max_parallel_creates", Integer.toString(creates),
                        Integer.toString(limit), "≤ (" + budget + ") / (10 × " + pools + " pools) on " + server));
            }
        }
    }
}
