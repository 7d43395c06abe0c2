package io.sluice.runtime;

/**
 * Starts Sluice without a config file: an embedded PostgreSQL plus Sluice on 127.0.0.1:6432.
 * Found by {@link Main} through {@link java.util.ServiceLoader} when no CONFIG_FILE is given.
 */
public interface QuickStarter {
    Lifecycle start(CliOptions options) throws Exception;
}
