package io.sluice.testkit;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Debian's Prometheus server ({@code /usr/bin/prometheus}) in the foreground on a free port of
 * 127.0.0.1, with its config and TSDB in a temp dir, scraping one target every second. The
 * HTTP API answers are returned as JSON text. Thread-safe.
 */
public final class PrometheusProcess implements AutoCloseable {
    public static final Path BINARY = Path.of("/usr/bin/prometheus");
    public static final Path PROMTOOL = Path.of("/usr/bin/promtool");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

    private final int port;
    private final ServerProcess process;
    private final HttpClient http = HttpClient.newHttpClient();

    private PrometheusProcess(int port, ServerProcess process) {
        this.port = port;
        this.process = process;
    }

    public static boolean available() {
        return Files.isExecutable(BINARY) && Files.isExecutable(PROMTOOL);
    }

    /** Starts Prometheus scraping {@code http://127.0.0.1:targetPort/metrics} as job {@code job}. */
    public static PrometheusProcess start(String job, int targetPort) {
        int port = FreePorts.next();
        Path dir = TempDir.create("sluice-prom-");
        Path config = TempDir.write(dir.resolve("prometheus.yml"), "global:\n"
                + "  scrape_interval: 1s\n"
                + "  scrape_timeout: 1s\n"
                + "scrape_configs:\n"
                + "  - job_name: " + job + "\n"
                + "    static_configs:\n"
                + "      - targets: ['127.0.0.1:" + targetPort + "']\n");
        List<String> cmd = List.of(BINARY.toString(), "--config.file=" + config,
                "--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + port,
                "--log.level=warn");
        ServerProcess p = new ServerProcess("prometheus", cmd, dir, Map.of("HOME", dir.toString()));
        p.awaitPort(port, START_TIMEOUT);
        PrometheusProcess prom = new PrometheusProcess(port, p);
        // the port opens before the TSDB is loaded; the API answers 503 until /-/ready says 200
        if (!Await.poll(START_TIMEOUT, prom::ready)) {
            prom.close();
            throw new IllegalStateException("prometheus not ready within " + START_TIMEOUT + "\n" + prom.log());
        }
        return prom;
    }

    private boolean ready() {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/-/ready"))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    public int port() {
        return port;
    }

    /** GET /api/v1/targets: the JSON text. */
    public String targets() {
        return get("/api/v1/targets");
    }

    /** GET /api/v1/query?query=...: the JSON text. */
    public String query(String promql) {
        return get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
    }

    /** Runs {@code promtool check metrics} on an exposition text. */
    public static ProcessResult checkMetrics(String exposition) {
        return ProcessRunner.of(PROMTOOL.toString(), "check", "metrics").stdin(exposition)
                .timeout(Duration.ofSeconds(30)).run();
    }

    /** Prometheus's own log (stdout and stderr). */
    public String log() {
        return process.output();
    }

    private String get(String path) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IllegalStateException("prometheus " + path + ": HTTP " + r.statusCode() + " " + r.body());
            }
            return r.body();
        } catch (IOException e) {
            throw new IllegalStateException("prometheus " + path, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        process.stop();
    }
}
