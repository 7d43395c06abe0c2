package io.sluice.compat.suite;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs one scenario against PgBouncer and against Sluice and asserts that what the client
 * observed is the same. Returns PgBouncer's observation so the test can also check it is the
 * behaviour it meant to exercise (two equal but empty answers prove nothing). Stateless.
 */
final class SideBySide {
    /** A client scenario against the pooler on {@code port}. */
    @FunctionalInterface
    interface Scenario {
        List<String> run(int port) throws Exception;
    }

    private SideBySide() {}

    static List<String> same(String behaviour, Scenario scenario) throws Exception {
        CompatTargets t = CompatTargets.get();
        Map<String, List<String>> seen = new LinkedHashMap<>();
        seen.put("pgbouncer", scenario.run(t.pgbouncer.port()));
        seen.put("sluice", scenario.run(t.sluice.port()));
        assertThat(seen.get("sluice")).as("%s: Sluice must answer as PgBouncer did", behaviour)
                .containsExactlyElementsOf(seen.get("pgbouncer"));
        return seen.get("pgbouncer");
    }
}
