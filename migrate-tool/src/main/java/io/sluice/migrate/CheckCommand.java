package io.sluice.migrate;

import io.sluice.config.ConfigException;
import io.sluice.config.ConfigLoader;
import io.sluice.config.ConfigSnapshot;
import io.sluice.config.DatabaseEntry;
import io.sluice.config.userlist.AuthFile;
import io.sluice.config.userlist.Secret;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sluice-migrate check}: loads a Sluice config, then checks it against this machine
 * (TLS files, listen ports) and against each PostgreSQL server it points to (capacity, secrets),
 * using read-only queries only.
 */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = {"Check a Sluice (or PgBouncer) config against the PostgreSQL servers it uses and this "
                + "machine: Σ pool_size against 80 %% of max_connections − superuser_reserved_connections, auth "
                + "file secrets against the server's roles and password_encryption, TLS files, listen ports."},
        footerHeading = "%nExit status:%n",
        footer = {"  0  ok", "  1  warnings", "  2  errors, or bad input (file:line) or bad usage"})
final class CheckCommand implements Callable<Integer> {

    @Option(names = {"-c", "--config"}, required = true, paramLabel = "FILE", description = "the config to check")
    Path config;

    @Option(names = "--server", paramLabel = "URL",
            description = "postgres://user:password@host:port/db to query instead of the hosts in [databases]; "
                    + "all databases are then counted against this server")
    String server;

    @Option(names = "--no-port-check", description = "do not test that the listen ports are free "
            + "(e.g. while PgBouncer still runs on them)")
    boolean noPortCheck;

    @Option(names = "--format", paramLabel = "text|json", defaultValue = "text",
            description = "report format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
    ConvertCommand.Format format;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ConfigSnapshot snap;
        try {
            snap = ConfigLoader.load(config);
        } catch (ConfigException e) {
            err.println("sluice-migrate: " + e.getMessage());
            err.flush();
            return Main.ERRORS;
        }
        ServerProbe.Target override = null;
        if (server != null) {
            try {
                override = ServerProbe.parseUrl(server);
            } catch (IllegalArgumentException e) {
                err.println("sluice-migrate: --server: " + e.getMessage());
                err.flush();
                return Main.ERRORS;
            }
        }
        Report r = new Report("sluice-migrate check");
        r.fact("config", config.toString());
        for (String w : snap.warnings()) {
            r.add(Severity.WARNING, "config", "", "", w);
        }
        LocalChecks.tlsFiles(snap, r);
        if (!noPortCheck) {
            LocalChecks.ports(snap, r);
        }
        AuthFile auth = snap.authFile().orElse(null);
        List<PoolDemand> demand = PoolDemand.of(snap, auth == null ? Set.of() : auth.users().keySet());
        CapacityRules.applyConfigOnly(snap, demand, r);
        Map<String, List<PoolDemand>> byServer = new LinkedHashMap<>();
        Map<String, ServerProbe.Target> targets = new LinkedHashMap<>();
        for (PoolDemand d : demand) {
            DatabaseEntry db = snap.databases().get(d.database());
            ServerProbe.Target t = override != null ? override : target(snap, db, auth);
            if (t == null) {
                r.add(Severity.WARNING, "capacity", "", "database " + d.database(), "on a Unix socket ("
                        + d.hostPort() + "): cannot query it over TCP; use --server postgres://... to check it");
                continue;
            }
            byServer.computeIfAbsent(t.where(), k -> new ArrayList<>()).add(d);
            targets.putIfAbsent(t.where(), t);
        }
        for (Map.Entry<String, List<PoolDemand>> e : byServer.entrySet()) {
            ServerProbe.Target t = targets.get(e.getKey());
            ServerFacts f;
            try {
                f = ServerProbe.read(t);
            } catch (SQLException ex) {
                r.add(Severity.ERROR, "server", "", t.where(), "cannot query PostgreSQL as " + t.user() + ": "
                        + ex.getMessage());
                continue;
            }
            r.fact("server " + f.where(), "PostgreSQL " + f.version() + ", max_connections " + f.maxConnections()
                    + ", reserved " + f.reserved() + ", password_encryption " + f.passwordEncryption());
            CapacityRules.applyServer(snap, f.where(), f.maxConnections(), f.reserved(), e.getValue(), r);
            if (auth != null) {
                SecretRules.check(auth, f, r);
            }
        }
        out.print(format == ConvertCommand.Format.json ? r.json() : r.text());
        out.flush();
        Severity worst = r.worst();
        return worst == Severity.ERROR ? Main.ERRORS : worst == Severity.WARNING ? Main.WARNINGS : Main.OK;
    }

    /**
     * How to reach a database's server without --server: its first host, as its forced user
     * (password from the entry or the auth file) or else PGUSER/PGPASSWORD; null for a Unix socket.
     */
    private static ServerProbe.Target target(ConfigSnapshot snap, DatabaseEntry db, AuthFile auth) {
        if (db.hosts().isEmpty() || db.hosts().get(0).startsWith("/") || db.hosts().get(0).startsWith("@")) {
            return null;
        }
        String user = db.user().orElse(System.getenv().getOrDefault("PGUSER", "postgres"));
        String password = db.password().isEmpty() ? null : db.password();
        if (password == null && auth != null) {
            password = auth.secret(user).filter(s -> s.kind() == Secret.Kind.PLAIN).map(Secret::text).orElse(null);
        }
        if (password == null) {
            password = System.getenv("PGPASSWORD");
        }
        return new ServerProbe.Target(db.hosts().get(0), db.port(), db.dbname(), user, password);
    }
}
