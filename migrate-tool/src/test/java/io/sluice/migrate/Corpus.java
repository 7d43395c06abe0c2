package io.sluice.migrate;

import io.sluice.testkit.ScratchDir;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The test corpus under {@code src/test/resources/corpus/<name>/}: a pgbouncer.ini plus the
 * files it names (userlist, hba file, includes), written with production paths such as
 * {@code /etc/pgbouncer/...}. {@link #localize} copies one into a private directory and points
 * every path key there, so PgBouncer and Sluice can run it side by side.
 */
final class Corpus {
    /** Keys whose value is a file: rewritten to {@code <dir>/<base name>}. */
    static final Set<String> PATH_KEYS = Set.of("logfile", "pidfile", "auth_file", "auth_hba_file",
            "auth_ident_file", "client_tls_key_file", "client_tls_cert_file", "client_tls_ca_file",
            "server_tls_key_file", "server_tls_cert_file", "server_tls_ca_file");

    private Corpus() {
    }

    static Path root() {
        try {
            return Path.of(Corpus.class.getResource("/corpus").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static List<String> names() {
        try (Stream<Path> s = Files.list(root())) {
            return s.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Copies corpus entry {@code name} into a new world-accessible dir; returns the ini's path there. */
    static Path localize(String name) throws IOException {
        Path dir = ScratchDir.create("corpus");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        try (Stream<Path> s = Files.list(root().resolve(name))) {
            for (Path f : s.toList()) {
                String text = rewrite(Files.readString(f), dir);
                Path to = Files.writeString(dir.resolve(f.getFileName()), text);
                Files.setPosixFilePermissions(to, PosixFilePermissions.fromString("rw-r--r--"));
            }
        }
        return dir.resolve("pgbouncer.ini");
    }

    private static String rewrite(String text, Path dir) {
        StringBuilder b = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            String t = line.strip();
            int eq = t.indexOf('=');
            String key = eq > 0 ? t.substring(0, eq).strip().toLowerCase() : "";
            if (t.startsWith("%include ")) {
                line = "%include " + dir.resolve(Path.of(t.substring(9).strip()).getFileName());
            } else if (!t.startsWith(";") && !t.startsWith("#") && PATH_KEYS.contains(key)) {
                String v = t.substring(eq + 1).strip();
                line = key + " = " + (v.isEmpty() ? "" : dir.resolve(Path.of(v).getFileName()).toString());
            } else if (!t.startsWith(";") && !t.startsWith("#") && key.equals("unix_socket_dir")) {
                line = "unix_socket_dir = " + dir;
            }
            b.append(line).append('\n');
        }
        return b.substring(0, b.length() - 1);
    }
}
