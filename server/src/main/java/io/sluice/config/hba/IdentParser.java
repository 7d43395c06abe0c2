package io.sluice.config.hba;

import io.sluice.config.FileErrors;
import io.sluice.config.hba.HbaTokens.Item;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads auth_ident_file: lines {@code map-name system-username database-username}, where the
 * database user may be {@code all}. Regular expressions ({@code /...}) and {@code +group},
 * which PostgreSQL has and PgBouncer does not, are refused rather than taken as literal names,
 * as is any other malformed line. Stateless.
 */
public final class IdentParser {

    private IdentParser() {
    }

    /** Reads {@code file}; {@code name} is how messages name it. */
    public static IdentMaps read(Path file, String name) throws HbaException {
        try {
            return parse(name, Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new HbaException(name, 0, "could not open auth_ident_file " + name + ": " + FileErrors.reason(e));
        }
    }

    public static IdentMaps parse(String name, String text) throws HbaException {
        Map<String, List<IdentMaps.Mapping>> maps = new LinkedHashMap<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            int line = i + 1;
            List<List<Item>> f = HbaTokens.fields(lines[i], name, line);
            if (f.isEmpty()) {
                continue;
            }
            if (f.size() != 3 || f.stream().anyMatch(x -> x.size() != 1)) {
                throw new HbaException(name, line, "ident line needs map-name system-username database-username");
            }
            Item system = f.get(1).get(0);
            Item database = f.get(2).get(0);
            if (!system.quoted() && system.text().startsWith("/")) {
                throw new HbaException(name, line, "not supported: regular expressions in auth_ident_file");
            }
            if (!database.quoted() && database.text().startsWith("+")) {
                throw new HbaException(name, line, "not supported: +group in auth_ident_file");
            }
            maps.computeIfAbsent(f.get(0).get(0).text(), k -> new ArrayList<>())
                    .add(new IdentMaps.Mapping(system.text(), database.is("all") ? null : database.text()));
        }
        return new IdentMaps(name, maps);
    }
}
