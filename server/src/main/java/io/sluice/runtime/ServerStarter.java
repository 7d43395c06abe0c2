package io.sluice.runtime;

import java.nio.file.Path;

/**
 * Starts Sluice from a config file: loads and validates it, binds the listeners, and returns
 * once the server accepts connections. Found by {@link Main} through {@link java.util.ServiceLoader}.
 * Failing to start is an exception whose message is logged as FATAL (e.g. "cannot load config
 * file"), and the process exits 1.
 */
public interface ServerStarter {
    Lifecycle start(Path config, CliOptions options) throws Exception;
}
