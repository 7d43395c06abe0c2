package io.sluice.runtime;

import io.sluice.config.ConfigException;
import io.sluice.config.ConfigLoader;
import io.sluice.config.ConfigSnapshot;
import io.sluice.config.DatabaseEntry;
import io.sluice.log.Log;
import io.sluice.proto.PgError;
import io.sluice.proto.SqlState;
import io.sluice.session.ClientSession;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * RELOAD and SIGHUP, all or nothing: the files are read into a new snapshot first, and a file
 * that does not load leaves the running config untouched and says why in the log. A snapshot
 * that loads is applied whole, with PgBouncer's consequences for {@code [databases]}: a database
 * no longer in the config is dropped at once (its clients get "database removed", its servers
 * close), and one whose server target changed (host, port, dbname, user, connect_query, auth_*,
 * load_balance_hosts) gets its servers marked close_needed, so they close once released and
 * new ones go to the new target. Event loop only.
 */
final class ConfigReload {
    static final String REMOVED = "database removed";

    private final SluiceServer server;

    ConfigReload(SluiceServer server) {
        this.server = server;
    }

    /** Re-reads the config files; false (old config kept, reason logged) when they do not load. */
    boolean reloadFiles() {
        ConfigSnapshot next;
        List<String> fileErrors = new ArrayList<>();
        try {
            next = ConfigLoader.reload(server.routing().config(), fileErrors::add);
        } catch (ConfigException e) {
            e.logLines().forEach(Log.global()::error);
            Log.global().warning("config file loading failed");
            return false;
        }
        fileErrors.forEach(Log.global()::error);
        apply(next);
        next.warnings().forEach(Log.global()::warning);
        reopenLog(next);
        return true;
    }

    /** Applies a snapshot that loaded (RELOAD, SIGHUP, SET); false when its TLS setup did not apply. */
    boolean apply(ConfigSnapshot next) {
        ConfigSnapshot before = server.routing().config();
        Set<String> inUse = databasesInUse();
        server.swapRouting(next);
        if (next.maxClientConn() > before.maxClientConn()) {
            ClientHeap.warning(next.maxClientConn()).ifPresent(Log.global()::warning);
        }
        for (String db : inUse) {
            Optional<DatabaseEntry> now = next.database(db);
            // as PgBouncer: an entry gone from [databases] is dropped even where '*' takes its name
            if (now.isEmpty() || before.databases().containsKey(db) && !next.databases().containsKey(db)) {
                drop(db);
            } else if (targetChanged(before.database(db), now.get())) {
                server.pauseControl().reconnect(db);
            }
        }
        server.pools().reload();
        boolean tlsApplied = server.reloadTls(next);
        server.closeIdleServersMarkedForClosing();
        return tlsApplied;
    }

    private Set<String> databasesInUse() {
        Set<String> dbs = new TreeSet<>();
        server.pools().pools().forEach(p -> dbs.add(p.key().database()));
        for (ClientSession c : server.clients().all()) {
            if (!c.isConsole() && c.database() != null && !c.database().isEmpty()) {
                dbs.add(c.database());
            }
        }
        dbs.remove(Routing.CONSOLE_DB);
        return dbs;
    }

    /** PgBouncer's kill_database: clients and servers of the database go now, and so do its pools. */
    private void drop(String db) {
        Log.global().warning("dropping database '" + db + "' as it does not exist anymore or inactive auto-database");
        for (ClientSession c : List.copyOf(server.clients().all())) {
            if (!c.isConsole() && db.equals(c.database())) {
                c.kill(REMOVED, PgError.fatal(SqlState.PROTOCOL_VIOLATION, REMOVED));
            }
        }
        server.pools().remove(db, REMOVED);
        server.pauseControl().forget(db);
        server.forgetWelcome(db);
    }

    /** What a server connection of the entry logs in to; a change makes its servers close_needed. */
    static boolean targetChanged(Optional<DatabaseEntry> before, DatabaseEntry after) {
        if (before.isEmpty()) {
            return false;
        }
        DatabaseEntry b = before.get();
        return !Objects.equals(b.dbname(), after.dbname())
                || !Objects.equals(b.host(), after.host())
                || !b.ports().equals(after.ports())
                || !Objects.equals(b.user(), after.user())
                || !Objects.equals(b.connectQuery(), after.connectQuery())
                || !Objects.equals(b.authUser(), after.authUser())
                || !Objects.equals(b.authQuery(), after.authQuery())
                || !Objects.equals(b.authDbname(), after.authDbname())
                || !Objects.equals(b.loadBalanceHosts(), after.loadBalanceHosts());
    }

    private static void reopenLog(ConfigSnapshot c) {
        Log.global().applyConfigVerbose((int) c.settings().integer("verbose"));
        SyslogSocket.configure(Log.global(), c.settings()); // PgBouncer's reset_logging: new ident and facility
        String logfile = c.settings().string("logfile");
        try {
            Log.global().reopen(logfile == null || logfile.isEmpty() ? null : Path.of(logfile));
        } catch (IOException e) {
            Log.global().error("cannot reopen logfile " + logfile + ": " + e.getMessage());
        }
    }
}
