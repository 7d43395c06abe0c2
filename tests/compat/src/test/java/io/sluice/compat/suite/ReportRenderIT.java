package io.sluice.compat.suite;

import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Acceptance 1: {@code sluice-compat run --workload herd,fifo-500,select-only} through its
 * launcher prints the side-by-side table and writes report.html, and headless Chromium (Debian's
 * {@code chromium}) draws the charts: the DOM after the page's script ran holds, per workload,
 * two latency curves, two TPS bars and two connect lines. A missing Chromium is a failure.
 */
class ReportRenderIT {
    private static final Path CHROMIUM = Path.of(System.getProperty("sluice.chromium", "/usr/bin/chromium"));

    @Test
    void runPrintsTableAndReportRendersChartsInChromium(@TempDir Path tmp) throws Exception {
        assertThat(Files.isExecutable(CHROMIUM)).as("Chromium is required: apt-get install chromium (.ci/run does)").isTrue();
        Path out = tmp.resolve("report");
        ProcessResult run = ProcessRunner.of(System.getProperty("sluice.compat.launcher"), "run",
                        "--workload", "herd,fifo-500,select-only", "--duration", "2", "--max-clients", "40", "--out", out.toString())
                .env("SLUICE_JAR", CompatTargets.jar().toAbsolutePath().toString())
                .env("SLUICE_COMPAT_JAR", System.getProperty("sluice.compat.jar"))
                .timeout(Duration.ofMinutes(3)).run();
        assertThat(run.ok()).as(run.describe()).isTrue();
        String table = run.stdout();
        assertThat(table).contains("pgbouncer", "sluice", "sluice/pgb")
                .contains("herd v1", "fifo-500 v1", "select-only v1")
                .contains("tps", "latency p50 ms", "latency p99.9 ms", "backend connects", "peak startups");
        assertThat(out.resolve("report.json")).content().contains("\"latencyCurve\"", "\"connectTimesMs\"");
        assertThat(Files.readString(out.resolve("report.html"))).as("self-contained: nothing loaded from elsewhere")
                .doesNotContain("<script src", "<link", "@import", "url(", "__DATA__");

        ProcessResult dom = ProcessRunner.of(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                        "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                        "--user-data-dir=" + tmp.resolve("chromium-profile"), "--dump-dom",
                        out.resolve("report.html").toUri().toString())
                .timeout(Duration.ofSeconds(90)).run();
        assertThat(dom.ok()).as(dom.describe()).isTrue();
        String html = dom.stdout();
        assertThat(html).contains("data-charts-drawn=\"3\"");
        assertThat(count(html, "<svg")).isEqualTo(9);
        assertThat(count(html, "<path class=\"curve ")).isEqualTo(6);
        assertThat(count(html, "<rect class=\"bar ")).isEqualTo(6);
        assertThat(count(html, "<path class=\"connects ")).isEqualTo(6);
        // a drawn curve has real coordinates, not an empty path
        Matcher m = Pattern.compile("<path class=\"curve sluice\" d=\"M[0-9.]+ [0-9.]+ L").matcher(html);
        assertThat(m.find()).as("Sluice's latency curve has points").isTrue();
    }

    private static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }
}
