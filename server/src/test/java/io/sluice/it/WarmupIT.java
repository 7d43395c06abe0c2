package io.sluice.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import io.sluice.testkit.SluiceProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The start-up warm-up ({@code -Dsluice.warmup=ms}; on by default for a handover only) runs its
 * rounds in a private pooler of its own: the process then serves as it would without one, its
 * log has no line of the private pooler's (no second "listening on", no connection lines
 * although log_connections is on), and the console knows nothing of its database or clients.
 */
class WarmupIT {
    private static final Path JAR = Path.of("target", "sluice.jar");
    private static final Pattern DONE = Pattern.compile("DEBUG warm-up: (\\d+) rounds in (\\d+) ms");

    @Test
    void warmUpLeavesNoTraceBesidesItsDebugLine() throws Exception {
        String ini = "[databases]\npostgres = host=127.0.0.1 port=" + PgCluster.shared().port() + "\n"
                + "[pgbouncer]\nauth_type = trust\nlogfile = sluice.log\npool_mode = transaction\n"
                + "admin_users = postgres\nlog_connections = 1\nlog_disconnections = 1\n";
        try (SluiceProcess sluice = new SluiceProcess(JAR).jvmArgs("-Xmx128m", "-Dsluice.warmup=300")
                .args("-v").ini(ini).userlist("\"postgres\" \"\"\n").start()) {
            ProcessResult query = ProcessRunner.psql("127.0.0.1", sluice.port(), "postgres", "postgres", null,
                    "select 'served'");
            assertThat(query.stdout().strip()).as(query.describe()).isEqualTo("served");

            ProcessResult pools = ProcessRunner.psql("127.0.0.1", sluice.port(), "pgbouncer", "postgres", null,
                    "show pools");
            assertThat(pools.stdout()).as(pools.describe()).contains("postgres").doesNotContain("warmup");
            ProcessResult totals = ProcessRunner.psql("127.0.0.1", sluice.port(), "pgbouncer", "postgres", null,
                    "show stats");
            assertThat(totals.stdout()).as(totals.describe()).doesNotContain("warmup");

            String log = Files.readString(sluice.dir().resolve("sluice.log"));
            Matcher done = DONE.matcher(log);
            assertThat(done.find()).as("the warm-up's line in:\n%s", log).isTrue();
            assertThat(Integer.parseInt(done.group(1))).as("rounds run").isPositive();
            assertThat(log).doesNotContain("warm-up stopped early").doesNotContain("sluice-warmup")
                    .doesNotContain("db=warmup").doesNotContain("warmup/warmup");
            List<String> listening = log.lines().filter(l -> l.contains("listening on 127.0.0.1:")).toList();
            assertThat(listening).as("only the configured listener")
                    .singleElement().asString().endsWith(":" + sluice.port());
            assertThat(sluice.output()).as("nothing on stderr from the private pooler's teardown")
                    .doesNotContain("Exception").doesNotContain("\tat io.netty");
        }
    }

    @Test
    void offByDefaultOnAnOrdinaryStart() throws Exception {
        String ini = "[databases]\npostgres = host=127.0.0.1 port=" + PgCluster.shared().port() + "\n"
                + "[pgbouncer]\nauth_type = trust\nlogfile = sluice.log\n";
        try (SluiceProcess sluice = new SluiceProcess(JAR).jvmArgs("-Xmx128m").args("-v").ini(ini)
                .userlist("\"postgres\" \"\"\n").start()) {
            ProcessResult query = ProcessRunner.psql("127.0.0.1", sluice.port(), "postgres", "postgres", null,
                    "select 1");
            assertThat(query.exitCode()).as(query.describe()).isZero();
            assertThat(Files.readString(sluice.dir().resolve("sluice.log"))).doesNotContain("warm-up");
        }
    }
}
