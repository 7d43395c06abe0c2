package io.sluice.runtime;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The parsed command line. {@code verbose} is the number of {@code -v}; {@code user} is the
 * {@code -u} argument (null if absent); {@code config} is null when no CONFIG_FILE was given
 * (quick start). {@code daemonChild} is true only in the detached process {@code -d} starts.
 */
public record CliOptions(
        boolean daemon, boolean quiet, int verbose, String user, Path config, boolean daemonChild) {

    public Optional<Path> configFile() {
        return Optional.ofNullable(config);
    }
}
