package io.sluice.compat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The parts of sluice-compat that need no server: ini edits, loopback rule, log reading, JSON, workloads. */
class CompatUnitTest {
    @Test
    void settingsGoAtTheEndOfThePgbouncerSection() {
        String ini = "[databases]\na = host=127.0.0.1\n[pgbouncer]\npidfile = /run/x.pid\n[users]\nu = pool_mode=session\n";
        Map<String, String> set = new LinkedHashMap<>();
        set.put("pidfile", "");
        String out = IniText.setInPgbouncer(ini, set);
        assertThat(out).contains("pidfile = /run/x.pid\n; set by sluice-compat\npidfile = \n[users]");
        assertThat(IniText.get(out, "pgbouncer", "pidfile")).isEmpty();
    }

    @Test
    void databasesMustBeOnThisMachine() {
        IniText.requireLoopbackDatabases("[databases]\na = host=127.0.0.1 port=5432\nb = host=/var/run/postgresql\nc = dbname=x\n");
        assertThatThrownBy(() -> IniText.requireLoopbackDatabases("[databases]\nremote = host=10.0.0.5 dbname=x\n"))
                .hasMessageContaining("remote").hasMessageContaining("loopback");
        assertThatThrownBy(() -> Stack.loopbackHostPort("192.168.1.2:6432")).hasMessageContaining("loopback");
        assertThat(Stack.loopbackHostPort("127.0.0.1:6432")).containsExactly("127.0.0.1", "6432");
    }

    @Test
    void connStringQuotesAreRemoved() {
        assertThat(IniText.connString("host=127.0.0.1 dbname='my db' port=5433"))
                .containsEntry("dbname", "my db").containsEntry("port", "5433");
    }

    @Test
    void logReaderCountsConnectsAndPeakStartups(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("pg.log");
        Files.writeString(log, "1000.000 [1] LOG:  connection received: host=127.0.0.1 port=1\n");
        BackendObserver o = BackendObserver.fromLog(log);
        o.begin(2_000_000);
        Files.writeString(log, String.join("\n",
                "2000.010 [10] LOG:  connection received: host=127.0.0.1 port=2",
                "2000.011 [11] LOG:  connection received: host=127.0.0.1 port=3",
                "2000.020 [10] LOG:  connection authorized: user=u database=d",
                "2000.021 [12] LOG:  connection received: host=127.0.0.1 port=4",
                "2000.030 [11] LOG:  connection authorized: user=u database=d",
                "2000.040 [12] LOG:  connection authorized: user=u database=d", ""),
                java.nio.file.StandardOpenOption.APPEND);
        BackendStats s = o.end();
        assertThat(s.connects()).isEqualTo(3);
        assertThat(s.peakStartups()).isEqualTo(2); // [10,20] overlaps [11,30], which overlaps [21,40]
        assertThat(s.connectTimes()).containsExactly(10L, 11L, 21L);
    }

    @Test
    void jsonEscapesAndKeepsOrder() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("b", "</script>\"x\"");
        m.put("a", List.of(1.5, Double.NaN, 2L));
        assertThat(Json.write(m)).isEqualTo("{\n  \"b\": \"\\u003c/script>\\\"x\\\"\",\n  \"a\": [1.5, null, 2]\n}");
    }

    @Test
    void workloadsAreNamedAndVersioned() {
        assertThat(Workloads.builtIn()).extracting(Workload::name).contains("herd", "fifo-500", "select-only",
                "select-only-simple", "select-only-prepared", "tpcb-like", "long-short", "copy", "listen-notify",
                "cancel", "errors-in-tx", "admin");
        assertThat(Workloads.named("fifo-500").clients()).isEqualTo(500);
        assertThatThrownBy(() -> Workloads.named("nope")).hasMessageContaining("known: ");
        assertThat(Workloads.script("mine", "SELECT 1", 7).clients()).isEqualTo(7);
    }

    @Test
    void ratioIsUnknownWithoutABaseline() {
        assertThat(Comparison.ratio(10, 5)).isEqualTo(2.0);
        assertThat(Comparison.ratio(10, 0)).isNaN();
        assertThat(Comparison.ratio(-1, 5)).isNaN();
    }
}
