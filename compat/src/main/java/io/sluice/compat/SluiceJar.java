package io.sluice.compat;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Finds the Sluice server jar: the option, $SLUICE_JAR, beside this tool's jar, or the source tree. Stateless. */
final class SluiceJar {
    private SluiceJar() {}

    static Path locate(Path option) {
        List<Path> tried = new ArrayList<>();
        if (option != null) {
            return require(option);
        }
        String env = System.getenv("SLUICE_JAR");
        if (env != null && !env.isEmpty()) {
            return require(Path.of(env));
        }
        Path self = selfDir();
        if (self != null) {
            tried.add(self.resolve("sluice.jar"));                                   // installed: lib/
            tried.add(self.resolve("../../server/target/sluice.jar").normalize());   // source tree: compat/target/
            tried.add(self.resolve("../../../server/target/sluice.jar").normalize()); // compat/target/classes/
        }
        for (Path p : tried) {
            if (Files.isRegularFile(p)) {
                return p;
            }
        }
        throw new IllegalStateException("cannot find sluice.jar (tried " + tried
                + "): build it with 'mvn -q package -DskipTests' or pass --sluice-jar / SLUICE_JAR");
    }

    private static Path require(Path p) {
        if (!Files.isRegularFile(p)) {
            throw new IllegalStateException("Sluice jar not found: " + p);
        }
        return p.toAbsolutePath();
    }

    private static Path selfDir() {
        try {
            Path self = Path.of(SluiceJar.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return Files.isDirectory(self) ? self : self.getParent();
        } catch (URISyntaxException | SecurityException | NullPointerException e) {
            return null;
        }
    }
}
