package io.sluice.packaging.deb;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** What this module's build made: target/sluice_*.deb and the staged files it was built from. */
final class Built {
    static final Path TARGET = Path.of(System.getProperty("sluice.packageDir", "target"));
    static final Path STAGING = TARGET.resolve("deb");
    static final Path REPO = TARGET.resolve("../../..").normalize();

    private Built() {}

    static Path deb() {
        try (Stream<Path> files = Files.list(TARGET)) {
            List<Path> debs = files.filter(p -> p.getFileName().toString().matches("sluice_.*_amd64\\.deb"))
                    .collect(Collectors.toList());
            assertThat(debs).as("exactly one sluice_*.deb in %s (run mvn package)", TARGET).hasSize(1);
            return debs.get(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The version in the package's control file. */
    static String version() {
        String name = deb().getFileName().toString();
        return name.substring("sluice_".length(), name.length() - "_amd64.deb".length());
    }
}
