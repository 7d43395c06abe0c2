package io.sluice.migrate;

import io.sluice.config.ConfigException;
import io.sluice.config.ConfigLoader;
import io.sluice.config.ConfigSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Asks Sluice's own loader about one line at a time: the line is written into a minimal
 * config file and loaded, so the answer (refused value, "accepted but not acted on" warning)
 * is exactly what Sluice would say, and stays right as Sluice learns more keys or values.
 * Owns a private temp dir, removed on {@link #close()}. Single-threaded.
 */
final class LineProbe implements AutoCloseable {

    /** The loader's answer: an error text, or warnings (texts without file:line). */
    record Answer(String error, List<String> warnings) {
        boolean ok() {
            return error == null;
        }
    }

    private final Path dir;
    private final Path emptyHba;
    private int n;

    LineProbe() {
        try {
            dir = Files.createTempDirectory("sluice-migrate-");
            emptyHba = Files.writeString(dir.resolve("empty.hba"), "");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A {@code [pgbouncer]} key line. */
    Answer setting(String key, String value) {
        StringBuilder text = new StringBuilder("[pgbouncer]\n");
        if (key.equalsIgnoreCase("auth_type")) {
            text.append("auth_hba_file = ").append(emptyHba).append('\n');
        }
        return run(text.append(key).append(" = ").append(value).append('\n').toString());
    }

    /** A line of {@code [databases]}, {@code [users]} or {@code [peers]}, written as is. */
    Answer entry(String section, String rawLine) {
        String text = "[pgbouncer]\n[" + section + "]\n" + rawLine.strip() + "\n";
        return run(text);
    }

    private Answer run(String text) {
        Path f = dir.resolve("probe" + (n++) + ".ini");
        try {
            Files.writeString(f, text, StandardCharsets.UTF_8);
            ConfigSnapshot s = ConfigLoader.load(f, dir);
            List<String> warnings = new ArrayList<>();
            for (String w : s.warnings()) {
                warnings.add(stripPlace(w, f));
            }
            return new Answer(null, warnings);
        } catch (ConfigException e) {
            return new Answer(e.what(), List.of());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            try {
                Files.deleteIfExists(f);
            } catch (IOException ignored) {
                // a leftover probe file in our own temp dir is harmless; close() retries
            }
        }
    }

    private static String stripPlace(String w, Path f) {
        String s = w;
        if (s.startsWith(f.toString())) {
            s = s.substring(f.toString().length());
            s = s.replaceFirst("^:\\d+: ", "").replaceFirst("^: ", "");
        }
        return s;
    }

    @Override
    public void close() {
        try (var files = Files.list(dir)) {
            for (Path p : files.toList()) {
                Files.deleteIfExists(p);
            }
            Files.deleteIfExists(dir);
        } catch (IOException ignored) {
            // best effort: a temp dir left behind is not worth failing the command
        }
    }
}
