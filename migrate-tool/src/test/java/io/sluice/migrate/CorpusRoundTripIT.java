package io.sluice.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.config.ConfigKey;
import io.sluice.config.ConfigKeys;
import io.sluice.config.ConfigLoader;
import io.sluice.config.ConfigSnapshot;
import io.sluice.config.ValueCodec;
import io.sluice.runtime.Consoles;
import io.sluice.runtime.SluiceServer;
import io.sluice.testkit.FreePorts;
import io.sluice.testkit.PgBouncerProcess;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Acceptance 1: every corpus file converts, the result loads in Sluice with the same settings
 * and entries, and - for files PgBouncer 1.18 can load - Sluice's SHOW CONFIG and SHOW DATABASES
 * on the converted file match real PgBouncer's on the original (keys and columns both know).
 */
class CorpusRoundTripIT {

    /** Set by the harness (listen) or naming the file itself (conffile): differ by construction. */
    private static final Set<String> HARNESS_KEYS = Set.of("listen_addr", "listen_port", "conffile");

    static Stream<String> corpus() {
        return Corpus.names().stream();
    }

    @ParameterizedTest
    @MethodSource("corpus")
    void convertedFileMatchesOriginal(String name) throws Exception {
        Path ini = Corpus.localize(name);
        Path dir = ini.getParent();
        List<SourceLine> lines = new SourceReader(dir).read(ini);
        Path out = dir.resolve("sluice.ini");
        assertThat(Main.run("convert", ini.toString(), "-o", out.toString(), "--format", "json"))
                .as("convert exit status").isZero();

        ConfigSnapshot converted = ConfigLoader.load(out, dir);
        assertSameSettingsAndEntries(lines, converted);

        if (!PgBouncer118.accepts(lines)) {
            return; // 1.25-only keys: checked against Sluice's loader above
        }
        Assumptions.assumeTrue(PgBouncerProcess.available(), "PgBouncer binary not installed");
        Map<String, String> pgbConfig;
        List<Map<String, String>> pgbDatabases;
        try (PgBouncerProcess pgb = PgBouncerProcess.start(Files.readString(ini), null)) {
            pgbConfig = config(console(dir, pgb.port(), true, "SHOW CONFIG"));
            pgbDatabases = console(dir, pgb.port(), true, "SHOW DATABASES");
        }
        int port = FreePorts.next();
        Path run = Files.writeString(dir.resolve("sluice-run.ini"), Files.readString(out)
                + "\n[pgbouncer]\nlisten_addr = 127.0.0.1\nlisten_port = " + port + "\n");
        SluiceServer sluice = new SluiceServer(ConfigLoader.load(run, dir));
        Consoles.attach(sluice);
        sluice.start();
        Map<String, String> sluiceConfig;
        List<Map<String, String>> sluiceDatabases;
        try {
            sluiceConfig = config(console(dir, port, false, "SHOW CONFIG"));
            sluiceDatabases = console(dir, port, false, "SHOW DATABASES");
        } finally {
            sluice.stopNow(0);
            sluice.terminated().get(10, TimeUnit.SECONDS);
        }

        Map<String, String> expected = new TreeMap<>();
        Map<String, String> actual = new TreeMap<>();
        Set<String> setInFile = settingsSet(lines);
        for (String key : pgbConfig.keySet()) {
            boolean versionDefault = PgBouncer118.OTHER_DEFAULTS.contains(key) && !setInFile.contains(key);
            if (sluiceConfig.containsKey(key) && !HARNESS_KEYS.contains(key) && !versionDefault) {
                expected.put(key, pgbConfig.get(key));
                actual.put(key, sluiceConfig.get(key));
            }
        }
        assertThat(expected).as("SHOW CONFIG keys compared").hasSizeGreaterThan(70);
        Map<String, String> differing = new TreeMap<>();
        expected.forEach((k, v) -> {
            if (!v.equals(actual.get(k))) {
                differing.put(k, "PgBouncer " + v + " / Sluice " + actual.get(k));
            }
        });
        assertThat(differing).as("SHOW CONFIG values of %s that differ", name).isEmpty();
        assertThat(rows(sluiceDatabases, port)).as("SHOW DATABASES of %s", name)
                .isEqualTo(rows(pgbDatabases, port));
    }

    private static Set<String> settingsSet(List<SourceLine> lines) {
        Set<String> out = new LinkedHashSet<>();
        for (SourceLine l : lines) {
            if (l.kind() == SourceLine.Kind.KEY && l.section().equals("pgbouncer")) {
                out.add(l.key().toLowerCase(Locale.ROOT));
            }
        }
        return out;
    }

    /** Original [pgbouncer] values (renamed where deprecated) and entry names survive conversion. */
    private static void assertSameSettingsAndEntries(List<SourceLine> lines, ConfigSnapshot converted) {
        Map<String, String> want = new TreeMap<>();
        Set<String> dbs = new LinkedHashSet<>();
        Set<String> users = new LinkedHashSet<>();
        Set<String> peers = new LinkedHashSet<>();
        for (SourceLine l : lines) {
            if (l.kind() != SourceLine.Kind.KEY) {
                continue;
            }
            switch (l.section()) {
                case "pgbouncer" -> {
                    String k = l.key().toLowerCase(Locale.ROOT);
                    k = KeyNotes.DEPRECATED_SETTINGS.getOrDefault(k, k);
                    ConfigKey key = ConfigKeys.get(k);
                    want.put(k, ValueCodec.format(key, ValueCodec.parse(key, l.value()).orElseThrow()));
                }
                case "databases" -> dbs.add(l.key());
                case "users" -> users.add(l.key());
                default -> peers.add(l.key());
            }
        }
        Map<String, String> got = new TreeMap<>();
        want.keySet().forEach(k -> got.put(k, converted.settings().format(k)));
        assertThat(got).as("settings after conversion").isEqualTo(want);
        Set<String> gotDbs = new LinkedHashSet<>(converted.databases().keySet());
        converted.fallback().ifPresent(f -> gotDbs.add("*"));
        assertThat(gotDbs).containsExactlyInAnyOrderElementsOf(dbs);
        assertThat(converted.users().keySet()).containsExactlyInAnyOrderElementsOf(users);
        assertThat(converted.peers().keySet().stream().map(String::valueOf).toList())
                .containsExactlyInAnyOrderElementsOf(peers);
        for (String k : PressureBlock.keys()) {
            assertThat(converted.settings().format(k)).isEqualTo(ConfigKeys.get(k).defaultValue());
        }
    }

    /** Rows on 1.18's columns (reserve_pool = reserve_pool_size), without run-time counters. */
    private static Map<String, Map<String, String>> rows(List<Map<String, String>> rows, int consolePort) {
        Map<String, Map<String, String>> out = new TreeMap<>();
        for (Map<String, String> r : rows) {
            Map<String, String> row = new LinkedHashMap<>();
            for (String c : PgBouncer118.DATABASE_COLUMNS) {
                String v = r.containsKey(c) ? r.get(c) : r.get(c.equals("reserve_pool") ? "reserve_pool_size" : c);
                if (!c.equals("current_connections") && !(c.equals("port") && r.get("name").equals("pgbouncer"))) {
                    row.put(c, v);
                }
            }
            out.put(r.get("name"), row);
        }
        return out;
    }

    private static Map<String, String> config(List<Map<String, String>> rows) {
        Map<String, String> m = new TreeMap<>();
        rows.forEach(r -> m.put(r.get("key"), r.get("value")));
        return m;
    }

    /** Runs a console command as user pgbouncer over the Unix socket (peer access), as the server's OS user. */
    private static List<Map<String, String>> console(Path socketDir, int port, boolean asPostgres, String sql) {
        List<String> cmd = new ArrayList<>();
        if (asPostgres && "root".equals(System.getProperty("user.name"))) {
            cmd.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        cmd.addAll(List.of("psql", "-X", "-A", "-F", "\u001f", "-P", "footer=off",
                "-h", socketDir.toString(), "-p", Integer.toString(port), "-U", "pgbouncer", "-d", "pgbouncer",
                "-c", sql));
        ProcessResult r = ProcessRunner.of(cmd).env("PGSSLMODE", "disable").run().requireSuccess();
        List<String> lines = r.stdout().lines().toList();
        String[] header = lines.get(0).split("\u001f", -1);
        List<Map<String, String>> out = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split("\u001f", -1);
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < header.length; i++) {
                row.put(header[i], i < cells.length ? cells[i] : "");
            }
            out.add(row);
        }
        return out;
    }
}
