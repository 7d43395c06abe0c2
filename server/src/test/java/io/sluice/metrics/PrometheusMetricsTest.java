package io.sluice.metrics;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PrometheusMetricsTest {
    static ShowTable scaling(String db) {
        return new ShowTable(List.of("user", "database", "inflight", "creates", "gate_waits", "gate_budget_ex",
                "antic_notify", "antic_timeout", "create_fallback", "replenish_def"),
                List.of(List.of("app", db, "2", "11", "3", "0", "4", "1", "1", "0")));
    }

    static ShowTable coordinator() {
        return new ShowTable(List.of("database", "max_db_conn", "current", "reserve_size", "reserve_used", "evictions",
                "reserve_acq", "exhaustions"), List.of(List.of("db", "40", "38", "5", "2", "3", "9", "1")));
    }

    @Test
    void pressureFamiliesUseTheSpecNamesAndTypes() {
        String text = new PrometheusMetrics().render(Map.of("POOL_SCALING", scaling("db"),
                "POOL_COORDINATOR", coordinator(), "VERSION", new ShowTable(List.of("version"),
                        List.of(List.of("PgBouncer 1.25.2 (Sluice 0.1.0)")))));
        assertThat(text)
                .contains("# TYPE sluice_pool_scaling_total counter")
                .contains("sluice_pool_scaling_total{database=\"db\",type=\"creates_started\",user=\"app\"} 11.0")
                .contains("# TYPE sluice_pool_scaling gauge")
                .contains("sluice_pool_scaling{type=\"inflight_creates\",database=\"db\",user=\"app\"} 2.0")
                .contains("sluice_pool_coordinator_total{database=\"db\",type=\"reserve_acquisitions\"} 9.0")
                .contains("sluice_pool_coordinator{type=\"reserve_in_use\",database=\"db\"} 2.0")
                .contains("sluice_pool_coordinator{type=\"max_connections\",database=\"db\"} 40.0")
                .contains("pgbouncer_version_info{version=\"PgBouncer 1.25.2 (Sluice 0.1.0)\"} 1")
                .contains("pgbouncer_up 1.0");
    }

    @Test
    void seriesOfAPoolThatWentAwayDisappear() {
        PrometheusMetrics m = new PrometheusMetrics();
        assertThat(m.render(Map.of("POOL_SCALING", scaling("a")))).contains("database=\"a\"");
        String after = m.render(Map.of("POOL_SCALING", scaling("b")));
        assertThat(after).doesNotContain("database=\"a\"").contains("database=\"b\"");
    }

    @Test
    void pinnedClientsAreCountedPerPoolAndAPoolWithoutPinsReadsZero() {
        ShowTable pools = new ShowTable(List.of("database", "user", "cl_active"),
                List.of(List.of("db", "app", "3"), List.of("db", "other", "1")));
        ShowTable pinned = new ShowTable(List.of("database", "user", "client_id", "reason"),
                List.of(List.of("db", "app", "7", "listen=1"), List.of("db", "app", "9", "temp=1")));
        PrometheusMetrics m = new PrometheusMetrics();
        String text = m.render(Map.of("POOLS", pools, "PINNED_CLIENTS", pinned));
        assertThat(text)
                .contains("# TYPE sluice_pool_pinned_clients gauge")
                .contains("sluice_pool_pinned_clients{database=\"db\",user=\"app\"} 2.0")
                .contains("sluice_pool_pinned_clients{database=\"db\",user=\"other\"} 0.0");
        String unpinned = m.render(Map.of("POOLS", pools, "PINNED_CLIENTS",
                new ShowTable(pinned.columns(), List.of())));
        assertThat(unpinned).contains("sluice_pool_pinned_clients{database=\"db\",user=\"app\"} 0.0");
    }

    @Test
    void microsecondColumnsBecomeSecondsAndNullCellsGiveNoSample() {
        ShowTable totals = new ShowTable(List.of("database", "query_time", "query_count"),
                java.util.Arrays.asList(java.util.Arrays.asList("db", "2500000", null)));
        String text = new PrometheusMetrics().render(Map.of("STATS_TOTALS", totals));
        assertThat(text).contains("pgbouncer_stats_queries_duration_seconds_total{database=\"db\"} 2.5")
                .doesNotContain("pgbouncer_stats_queries_pooled_total{");
    }
}
