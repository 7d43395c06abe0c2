package io.sluice.it;

import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The npm drivers of {@code clients/node} (exact versions in its package-lock.json), installed
 * with {@code npm ci} into {@code server/target/node-clients}. An install whose lock file matches
 * is kept, so later runs need neither npm nor the registry.
 */
final class NodeClients {
    private static Path modules;

    private NodeClients() {
    }

    /** The node binary; a missing one fails the test (CI installs Debian's nodejs). */
    static String node() {
        return onPath("node");
    }

    private static String onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            if (Files.isExecutable(Path.of(dir, command))) {
                return Path.of(dir, command).toString();
            }
        }
        return fail(command + " not found on PATH: the Node.js driver tests need Debian's nodejs and npm"
                + " (.ci/run installs them)");
    }

    /** The installed node_modules directory, for NODE_PATH. */
    static synchronized Path modules() throws IOException, URISyntaxException {
        if (modules != null) {
            return modules;
        }
        node();
        Path source = Path.of(NodeClients.class.getResource("/clients/node/package.json").toURI()).getParent();
        // test-classes/clients/node -> target/node-clients
        Path dir = source.getParent().getParent().getParent().resolve("node-clients");
        byte[] lock = Files.readAllBytes(source.resolve("package-lock.json"));
        Path marker = dir.resolve("installed-package-lock.json");
        boolean current = Files.isDirectory(dir.resolve("node_modules"))
                && Files.exists(marker) && Arrays.equals(Files.readAllBytes(marker), lock);
        if (!current) {
            Files.createDirectories(dir);
            Files.deleteIfExists(marker);
            Files.copy(source.resolve("package.json"), dir.resolve("package.json"), StandardCopyOption.REPLACE_EXISTING);
            Files.write(dir.resolve("package-lock.json"), lock);
            ProcessResult r = ProcessRunner.of(onPath("npm"), "ci", "--prefer-offline", "--no-audit", "--no-fund")
                    .directory(dir).timeout(Duration.ofMinutes(5)).run();
            assertThat(r.exitCode()).as("npm ci of the Node.js drivers: " + r.describe()).isZero();
            Files.write(marker, lock);
        }
        modules = dir.resolve("node_modules");
        return modules;
    }
}
