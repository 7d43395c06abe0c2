package io.sluice.runtime;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads {@code pidfile}, {@code logfile} and {@code syslog} from the {@code [pgbouncer]}
 * section, following {@code %include} (relative names resolve against the working directory,
 * as in PgBouncer). A stand-in until the config package offers its snapshot; it validates
 * nothing else. An unreadable file is PgBouncer's FATAL "cannot load config file".
 */
public final class IniDaemonConfigReader implements Function<Path, DaemonConfig> {

    @Override
    public DaemonConfig apply(Path config) {
        String[] values = new String[3];
        try {
            read(config, values, new HashSet<>(), new String[] {""});
        } catch (IOException e) {
            throw new FatalError("cannot load config file", e);
        }
        return new DaemonConfig(path(values[0]), path(values[1]), "1".equals(values[2]));
    }

    private static Path path(String value) {
        return value == null || value.isEmpty() ? null : Path.of(value);
    }

    /** {@code section[0]} carries the current section across includes, as a flat file would. */
    private void read(Path file, String[] values, Set<Path> seen, String[] section) throws IOException {
        if (!seen.add(file.toAbsolutePath().normalize())) {
            throw new IOException("recursive %include: " + file);
        }
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (String raw : lines) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith(";") || line.startsWith("#")) {
                continue;
            }
            if (line.startsWith("%include")) {
                read(Path.of(line.substring("%include".length()).strip()), values, seen, section);
                continue;
            }
            if (line.startsWith("[") && line.endsWith("]")) {
                section[0] = line.substring(1, line.length() - 1).strip().toLowerCase(Locale.ROOT);
                continue;
            }
            int eq = line.indexOf('=');
            if (eq < 0 || !section[0].equals("pgbouncer")) {
                continue;
            }
            String key = line.substring(0, eq).strip().toLowerCase(Locale.ROOT);
            String value = line.substring(eq + 1).strip();
            switch (key) {
                case "pidfile" -> values[0] = value;
                case "logfile" -> values[1] = value;
                case "syslog" -> values[2] = value;
                default -> { }
            }
        }
        seen.remove(file.toAbsolutePath().normalize());
    }
}
