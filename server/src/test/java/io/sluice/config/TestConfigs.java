package io.sluice.config;

import io.sluice.testkit.ScratchDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Helpers that put config text into files for the loader. */
final class TestConfigs {

    private TestConfigs() {
    }

    static Path write(Path dir, String name, String content) {
        try {
            Path p = dir.resolve(name);
            Files.createDirectories(p.getParent());
            Files.writeString(p, content, StandardCharsets.UTF_8);
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String resource(String name) {
        try (InputStream in = TestConfigs.class.getResourceAsStream("/config/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Loads {@code text} as {@code pgbouncer.ini} in {@code dir}, relative names against {@code dir}. */
    static ConfigSnapshot load(Path dir, String text) throws ConfigException {
        write(dir, "pgbouncer.ini", text);
        return ConfigLoader.load(Path.of("pgbouncer.ini"), dir);
    }

    /** A config with only an empty [pgbouncer] section: every key at its default. */
    static ConfigSnapshot minimal() {
        Path dir = ScratchDir.create("config");
        try {
            return load(dir, "[pgbouncer]\n");
        } catch (ConfigException e) {
            throw new IllegalStateException(e);
        } finally {
            ScratchDir.delete(dir);    // the snapshot holds the values, not the file
        }
    }
}
