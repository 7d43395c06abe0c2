package io.sluice.arch;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The package arrows of DESIGN.md: each package may use only the packages listed for it, so the
 * pool engine stays testable without sockets and nothing inner reaches for the wiring.
 */
class ArchitectureTest {
    /** package -> the io.sluice packages it may use (itself and its sub-packages always). */
    static final Map<String, Set<String>> ALLOWED = Map.ofEntries(
            Map.entry("util", Set.of()),
            Map.entry("log", Set.of("util")),
            Map.entry("proto", Set.of("util")),
            Map.entry("config", Set.of("util")),
            Map.entry("auth", Set.of("config", "util")),
            Map.entry("pool", Set.of("config", "util")),
            Map.entry("stats", Set.of("pool", "util")),
            Map.entry("net", Set.of("config", "util")),
            Map.entry("hosts", Set.of("config", "util")),
            Map.entry("tls", Set.of("config", "log", "util")),
            Map.entry("backend", Set.of("proto", "auth", "pool", "tls", "net", "config", "stats", "log", "util")),
            Map.entry("session", Set.of("proto", "auth", "pool", "backend", "tls", "net", "config", "stats", "log",
                    "util")),
            Map.entry("admin", Set.of("pool", "stats", "config", "proto", "hosts", "util")),
            Map.entry("warmup", Set.of("proto", "util")));

    static final List<String> ALL = List.of("util", "log", "proto", "config", "auth", "pool", "stats", "net", "hosts", "tls",
            "backend", "session", "admin", "metrics", "warmup", "runtime");

    static JavaClasses classes;

    @BeforeAll
    static void load() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.sluice");
    }

    static Stream<String> packages() {
        return ALLOWED.keySet().stream().sorted();
    }

    @ParameterizedTest
    @MethodSource("packages")
    void packageUsesOnlyWhatItMay(String pkg) {
        String[] forbidden = ALL.stream()
                .filter(other -> !other.equals(pkg) && !ALLOWED.get(pkg).contains(other))
                .map(other -> "io.sluice." + other + "..")
                .toArray(String[]::new);
        noClasses().that().resideInAPackage("io.sluice." + pkg + "..")
                .should().dependOnClassesThat().resideInAnyPackage(forbidden)
                .check(classes);
    }

    /** session.state is pure: the wire model and util, no Netty, nothing of the session around it. */
    @org.junit.jupiter.api.Test
    void sessionStateIsPure() {
        String[] forbidden = Stream.concat(
                        ALL.stream().filter(p -> !p.equals("proto") && !p.equals("util") && !p.equals("session"))
                                .map(p -> "io.sluice." + p + ".."),
                        Stream.of("io.sluice.session", "io.netty.."))
                .toArray(String[]::new);
        noClasses().that().resideInAPackage("io.sluice.session.state..")
                .should().dependOnClassesThat().resideInAnyPackage(forbidden)
                .check(classes);
    }

    @ParameterizedTest
    @MethodSource("poolLayers")
    void poolLayersPointInward(String pkg, String[] forbidden) {
        noClasses().that().resideInAPackage(pkg).should().dependOnClassesThat().resideInAnyPackage(forbidden)
                .allowEmptyShould(true) // pool.coord arrives with coordinator mode
                .check(classes);
    }

    static Stream<org.junit.jupiter.params.provider.Arguments> poolLayers() {
        return Stream.of(
                org.junit.jupiter.params.provider.Arguments.of("io.sluice.pool",
                        new String[] {"io.sluice.pool.pressure..", "io.sluice.pool.evict..", "io.sluice.pool.coord.."}),
                org.junit.jupiter.params.provider.Arguments.of("io.sluice.pool.pressure..",
                        new String[] {"io.sluice.pool.evict.."}),
                org.junit.jupiter.params.provider.Arguments.of("io.sluice.pool.coord..",
                        new String[] {"io.sluice.pool.pressure..", "io.sluice.pool.evict.."}));
    }
}
