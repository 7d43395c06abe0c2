package io.sluice.runtime;

import io.sluice.config.ConfigException;
import io.sluice.config.ConfigLoader;
import io.sluice.config.ConfigSnapshot;

import java.nio.file.Path;
import java.util.function.Function;

/**
 * Reads {@code pidfile}, {@code logfile}, {@code syslog} and {@code user} through the config
 * loader itself, so daemon mode sees exactly the file Sluice will run (includes, comments,
 * errors with file:line). A file that does not load is PgBouncer's FATAL "cannot load config file".
 */
public final class SnapshotDaemonConfig implements Function<Path, DaemonConfig> {

    @Override
    public DaemonConfig apply(Path config) {
        ConfigSnapshot snapshot;
        try {
            // as the start reads it (a bad auth or hba file does not stop it); the start logs its errors
            snapshot = ConfigLoader.loadForStart(config, error -> { });
        } catch (ConfigException e) {
            throw FatalError.configNotLoaded(e);
        }
        var s = snapshot.settings();
        String user = s.string("user");
        return new DaemonConfig(path(s.string("pidfile")), path(s.string("logfile")), s.flag("syslog"),
                user == null || user.isEmpty() ? null : user);
    }

    private static Path path(String value) {
        return value == null || value.isEmpty() ? null : Path.of(value);
    }
}
