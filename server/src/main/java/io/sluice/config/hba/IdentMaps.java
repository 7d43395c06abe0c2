package io.sluice.config.hba;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * auth_ident_file: user name maps for hba lines with {@code map=}. Each mapping lets one
 * system user (the peer's Unix user name) log in as one database user, or as any with
 * {@code all}. PgBouncer's subset: no regular expressions, no {@code +group}, no includes.
 * Immutable.
 *
 * @param source file name as configured ("" when no file was given)
 * @param maps   map name to its mappings, in file order
 */
public record IdentMaps(String source, Map<String, List<Mapping>> maps) {

    /** No ident file: every {@code map=} is unknown. */
    public static final IdentMaps NONE = new IdentMaps("", Map.of());

    /**
     * One line of the file.
     *
     * @param systemUser   the peer's Unix user name
     * @param databaseUser the database user it may log in as; null for {@code all}
     */
    public record Mapping(String systemUser, String databaseUser) {
        public Mapping {
            Objects.requireNonNull(systemUser, "systemUser");
        }

        boolean allows(String system, String database) {
            return systemUser.equals(system) && (databaseUser == null || databaseUser.equals(database));
        }
    }

    public IdentMaps {
        Map<String, List<Mapping>> copy = new LinkedHashMap<>();
        maps.forEach((k, v) -> copy.put(k, List.copyOf(v)));
        maps = java.util.Collections.unmodifiableMap(copy);
    }

    public boolean has(String map) {
        return maps.containsKey(map);
    }

    /** True when map {@code map} lets system user {@code system} log in as {@code database}. */
    public boolean allows(String map, String system, String database) {
        return maps.getOrDefault(map, List.of()).stream().anyMatch(m -> m.allows(system, database));
    }
}
