package io.sluice.admin;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** SHOW STATS, STATS_TOTALS, STATS_AVERAGES and TOTALS: same eleven counters, four layouts. */
final class StatsTables {

    /** One counter: its names in STATS (total_/avg_ suffix), TOTALS (row name suffix) and how to read it. */
    private record Counter(String stats, String avgStats, String totals, String averages, String totalsRow,
                           Function<StatsCounters, Long> get) {
    }

    // Names differ between commands in PgBouncer (recv/received, client_bytes, ps_ prefixes,
    // the avg_ prefix kept only on the last three STATS_AVERAGES columns), so each is spelled out.
    private static final List<Counter> COUNTERS = List.of(
            new Counter("total_server_assignment_count", "avg_server_assignment_count",
                    "server_assignment_count", "server_assignment_count", "server_assignment_count",
                    StatsCounters::serverAssignmentCount),
            new Counter("total_xact_count", "avg_xact_count", "xact_count", "xact_count", "xact_count",
                    StatsCounters::xactCount),
            new Counter("total_query_count", "avg_query_count", "query_count", "query_count", "query_count",
                    StatsCounters::queryCount),
            new Counter("total_received", "avg_recv", "bytes_received", "bytes_received", "client_bytes",
                    StatsCounters::bytesReceived),
            new Counter("total_sent", "avg_sent", "bytes_sent", "bytes_sent", "server_bytes",
                    StatsCounters::bytesSent),
            new Counter("total_xact_time", "avg_xact_time", "xact_time", "xact_time", "xact_time",
                    StatsCounters::xactTime),
            new Counter("total_query_time", "avg_query_time", "query_time", "query_time", "query_time",
                    StatsCounters::queryTime),
            new Counter("total_wait_time", "avg_wait_time", "wait_time", "wait_time", "wait_time",
                    StatsCounters::waitTime),
            new Counter("total_client_parse_count", "avg_client_parse_count", "client_parse_count",
                    "avg_client_parse_count", "ps_client_parse_count", StatsCounters::clientParseCount),
            new Counter("total_server_parse_count", "avg_server_parse_count", "server_parse_count",
                    "avg_server_parse_count", "ps_server_parse_count", StatsCounters::serverParseCount),
            new Counter("total_bind_count", "avg_bind_count", "bind_count", "avg_bind_count", "ps_bind_count",
                    StatsCounters::bindCount));

    /** A SHOW TOTALS row. */
    record NamedValue(String name, long value) {
    }

    private StatsTables() {
    }

    static ShowTable<StatsRow> stats() {
        ShowTable<StatsRow> t = ShowTable.<StatsRow>of("STATS", AdminContext::stats).text("database", StatsRow::database);
        for (Counter c : COUNTERS) {
            t.numeric(c.stats(), r -> c.get().apply(r.totals()));
        }
        for (Counter c : COUNTERS) {
            t.numeric(c.avgStats(), r -> c.get().apply(r.averages()));
        }
        return t;
    }

    static ShowTable<StatsRow> statsTotals() {
        ShowTable<StatsRow> t = ShowTable.<StatsRow>of("STATS_TOTALS", AdminContext::stats)
                .text("database", StatsRow::database);
        for (Counter c : COUNTERS) {
            t.numeric(c.totals(), r -> c.get().apply(r.totals()));
        }
        return t;
    }

    static ShowTable<StatsRow> statsAverages() {
        ShowTable<StatsRow> t = ShowTable.<StatsRow>of("STATS_AVERAGES", AdminContext::stats)
                .text("database", StatsRow::database);
        for (Counter c : COUNTERS) {
            t.numeric(c.averages(), r -> c.get().apply(r.averages()));
        }
        return t;
    }

    /** 22 rows: {@code total_<x>} for the eleven totals, then {@code avg_<x>} for the averages. */
    static ShowTable<NamedValue> totals() {
        return ShowTable.<NamedValue>of("TOTALS", StatsTables::totalRows)
                .text("name", NamedValue::name)
                .numeric("value", NamedValue::value);
    }

    private static List<NamedValue> totalRows(AdminContext ctx) {
        StatsCounters totals = ctx.totalCounters();
        StatsCounters averages = ctx.totalAverages();
        List<NamedValue> rows = new ArrayList<>(2 * COUNTERS.size());
        for (Counter c : COUNTERS) {
            rows.add(new NamedValue("total_" + c.totalsRow(), c.get().apply(totals)));
        }
        for (Counter c : COUNTERS) {
            rows.add(new NamedValue("avg_" + c.totalsRow(), c.get().apply(averages)));
        }
        return rows;
    }
}
