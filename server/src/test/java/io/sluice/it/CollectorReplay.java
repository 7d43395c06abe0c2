package io.sluice.it;

import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the collector replays in {@code src/test/resources/collectors}: the Go program (the
 * prometheus-community exporter, Netdata, Telegraf and pgmetrics with lib/pq or pgx v4, built
 * once with Debian's Go) and {@code datadog_replay.py} (psycopg2). A result is the parsed
 * output: "what labels" → "driver-type value", plus the collector's error lines.
 */
final class CollectorReplay {
    static final Path GOPATH = Path.of("/usr/share/gocode");
    private static final Path DIR = Path.of("target/collectors");
    /** The Go replay, one file per collector plus main.go. */
    private static final List<String> GO_FILES =
            List.of("main.go", "exporter.go", "netdata.go", "telegraf.go", "pgmetrics.go");
    private static Path binary;

    /** What one collector parsed from one pooler. */
    record Result(Map<String, String> values, List<String> errors, String raw) {
        /** The driver's Go/Python type of one parsed value. */
        String type(String key) {
            return values.get(key).split("\t", 2)[0];
        }

        String value(String key) {
            return values.get(key).split("\t", 2)[1];
        }
    }

    private CollectorReplay() {
    }

    /** True when Debian's Go and the lib/pq and pgx v4 sources are installed. */
    static boolean goAvailable() {
        return Files.isExecutable(Path.of("/usr/bin/go"))
                && Files.isDirectory(GOPATH.resolve("src/github.com/lib/pq"))
                && Files.isDirectory(GOPATH.resolve("src/github.com/jackc/pgx/v4"));
    }

    /** {@code mode} is exporter, netdata, telegraf or pgmetrics. */
    static Result go(String mode, int port, String user) {
        return parse(ProcessRunner.of(goBinary().toString(), mode, String.valueOf(port), user)
                .timeout(Duration.ofSeconds(30)).run(), port);
    }

    static Result datadog(int port, String user) {
        Path script = resource("", "datadog_replay.py");
        return parse(ProcessRunner.of("/usr/bin/python3", script.toString(), String.valueOf(port), user)
                .timeout(Duration.ofSeconds(30)).run(), port);
    }

    private static synchronized Path goBinary() {
        if (binary == null) {
            for (String f : GO_FILES) {
                resource("go/", f);
            }
            Path out = DIR.resolve("replay").toAbsolutePath();
            ProcessResult r = ProcessRunner.of("/usr/bin/go", "build", "-o", out.toString(), ".")
                    .directory(DIR.resolve("go").toAbsolutePath())
                    .env("GOPATH", GOPATH.toString()).env("GO111MODULE", "off")
                    .timeout(Duration.ofMinutes(3)).run();
            assertThat(r.exitCode()).as(r.describe()).isZero();
            binary = out;
        }
        return binary;
    }

    /** Copies a resource of {@code /collectors} into {@code target/collectors/<subdir>}. */
    private static Path resource(String subdir, String name) {
        try (InputStream in = CollectorReplay.class.getResourceAsStream("/collectors/" + name)) {
            Files.createDirectories(DIR.resolve(subdir));
            Path p = DIR.resolve(subdir + name).toAbsolutePath();
            Files.write(p, in.readAllBytes());
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The pooler's own port appears in labels (its admin database row); it is written $PORT. */
    private static Result parse(ProcessResult r, int port) {
        assertThat(r.exitCode()).as(r.describe()).isZero();
        Map<String, String> values = new TreeMap<>();
        List<String> errors = new ArrayList<>();
        for (String line : r.stdout().split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split("\t", 4);
            if (f[0].equals("ERROR")) {
                errors.add(f[1]);
                continue;
            }
            String labels = f[1].replace("=" + port, "=$PORT").replace(":" + port, ":$PORT");
            values.put(f[0] + " {" + labels + "}", f[2] + "\t" + f[3]);
        }
        return new Result(values, errors, r.stdout());
    }
}
