package io.sluice.compat;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;

/**
 * {@code sluice-compat run}: for each workload, for PgBouncer then Sluice, start the pooler
 * afresh (cold pool), run the workload for the duration, read what PostgreSQL saw; then print
 * the table and write report.json and report.html. Runs on the calling thread.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Run workloads against PgBouncer and Sluice and compare them.")
final class RunCommand implements Callable<Integer> {
    static final int MAX_DURATION_SECONDS = 600;
    static final int MAX_CLIENTS = 2000;

    @Option(names = {"-w", "--workload"}, split = ",", description = "Workloads (see 'list'); default: herd,fifo-500,select-only.")
    List<String> workloads = new ArrayList<>(List.of("herd", "fifo-500", "select-only"));

    @Option(names = "--script", description = "Your own workload: a SQL file every client runs repeatedly.")
    Path script;

    @Option(names = "--script-clients", description = "Clients for --script (default ${DEFAULT-VALUE}).")
    int scriptClients = 10;

    @Option(names = {"-d", "--duration"}, description = "Seconds per workload per target (default ${DEFAULT-VALUE}, at most 600).")
    int durationSeconds = 10;

    @Option(names = {"-c", "--max-clients"}, description = "Cap on any workload's clients (default ${DEFAULT-VALUE}, at most 2000).")
    int maxClients = 500;

    @Option(names = "--config", description = "Your pgbouncer.ini: both poolers run it (only ports differ).")
    Path config;

    @Option(names = "--pgbouncer", description = "Use a running PgBouncer at HOST:PORT (loopback) instead of starting one.")
    String pgbouncerAddr;

    @Option(names = "--sluice", description = "Use a running Sluice at HOST:PORT (loopback) instead of starting one.")
    String sluiceAddr;

    @Option(names = "--postgres", description = "With --pgbouncer/--sluice: PostgreSQL at HOST:PORT, to count backend connects.")
    String postgresAddr;

    @Option(names = "--dbname", description = "Database clients connect to (default ${DEFAULT-VALUE}).")
    String database = "postgres";

    @Option(names = "--session-dbname", description = "A session-mode database for listen-notify (throwaway setup: postgres_session).")
    String sessionDatabase;

    @Option(names = {"-U", "--user"}, description = "User clients log in as (default ${DEFAULT-VALUE}).")
    String user = "postgres";

    @Option(names = "--password", description = "Password (default: $PGPASSWORD).")
    String password = System.getenv("PGPASSWORD");

    @Option(names = "--pool-size", description = "Throwaway setup: default_pool_size (default ${DEFAULT-VALUE}).")
    int poolSize = 20;

    @Option(names = "--scale", description = "Throwaway setup: pgbench scale (default ${DEFAULT-VALUE}).")
    int scale = 1;

    @Option(names = "--sluice-jar", description = "Sluice server jar (default: $SLUICE_JAR, or found next to this tool).")
    Path sluiceJar;

    @Option(names = {"-o", "--out"}, description = "Directory for report.json and report.html (default ${DEFAULT-VALUE}).")
    Path out = Path.of("sluice-compat-report");

    @Override
    public Integer call() throws Exception {
        if (durationSeconds < 1 || durationSeconds > MAX_DURATION_SECONDS) {
            throw new IllegalArgumentException("--duration must be 1.." + MAX_DURATION_SECONDS + " seconds");
        }
        if (maxClients < 1 || maxClients > MAX_CLIENTS) {
            throw new IllegalArgumentException("--max-clients must be 1.." + MAX_CLIENTS);
        }
        List<Workload> selected = new ArrayList<>();
        for (String name : workloads) {
            if (!name.isBlank()) {
                selected.add(Workloads.named(name.strip()));
            }
        }
        if (script != null) {
            selected.add(Workloads.script("script:" + script.getFileName(), Files.readString(script), scriptClients));
        }
        if (selected.isEmpty()) {
            throw new IllegalArgumentException("no workload selected");
        }
        List<Comparison> results;
        String setup;
        try (Stack stack = stack()) {
            setup = stack.description;
            System.out.println("sluice-compat: " + setup);
            results = runAll(stack, selected);
        }
        System.out.print(TextTable.render(results));
        Files.createDirectories(out);
        String json = Json.write(ReportData.build(setup, durationSeconds, maxClients, results));
        Files.writeString(out.resolve("report.json"), json + "\n");
        Files.writeString(out.resolve("report.html"), HtmlReport.render(json));
        System.out.println("wrote " + out.resolve("report.json") + " and " + out.resolve("report.html"));
        return 0;
    }

    private Stack stack() throws Exception {
        if (pgbouncerAddr != null || sluiceAddr != null) {
            if (pgbouncerAddr == null || sluiceAddr == null) {
                throw new IllegalArgumentException("--pgbouncer and --sluice go together");
            }
            return Stack.attach(pgbouncerAddr, sluiceAddr, postgresAddr, database, user, password);
        }
        Path jar = SluiceJar.locate(sluiceJar);
        if (config != null) {
            return Stack.fromConfig(config, jar, database, user, password);
        }
        if (sessionDatabase == null) {
            sessionDatabase = "postgres_session";
        }
        return Stack.throwaway(jar, poolSize, scale, maxClients);
    }

    private List<Comparison> runAll(Stack stack, List<Workload> selected) throws Exception {
        List<Comparison> results = new ArrayList<>();
        int pgbenchScale = -1;
        for (Workload w : selected) {
            Map<String, TargetResult> byTarget = new LinkedHashMap<>();
            int clients = Math.min(w.clients(), maxClients);
            String db = switch (w.mode()) {
                case ADMIN -> "pgbouncer";
                case SESSION_POOL -> requireSessionDatabase(w);
                case TRANSACTION_POOL -> database;
            };
            for (Target t : stack.targets()) {
                t.coldStart();
                if (w.name().startsWith("select-only") || w.name().startsWith("tpcb-like") || w.name().equals("herd")) {
                    pgbenchScale = pgbenchScale > 0 ? pgbenchScale : pgbenchScale(t);
                }
                if (w.name().equals("copy")) {
                    prepareCopyTable(t);
                }
                System.out.printf("running %s on %s: %d clients, %d s%n", w.label(), t.name(), clients, durationSeconds);
                LoadRunner runner = new LoadRunner(t.host(), t.port(), user, password, durationSeconds * 1000L);
                stack.observer.begin(System.currentTimeMillis());
                TargetResult r = runner.run(t.name(), w, db, clients, new Workload.Context(Math.max(1, pgbenchScale)));
                byTarget.put(t.name(), new TargetResult(r.target(), r.clients(), r.steps(), r.seconds(), r.latencyUs(),
                        r.errors(), stack.observer.end()));
            }
            results.add(new Comparison(w, byTarget.get("pgbouncer"), byTarget.get("sluice")));
        }
        return results;
    }

    private String requireSessionDatabase(Workload w) {
        if (sessionDatabase == null) {
            throw new IllegalArgumentException(w.name() + " needs a database in pool_mode=session: name it with --session-dbname");
        }
        return sessionDatabase;
    }

    private int pgbenchScale(Target t) throws SQLException {
        try (Connection c = direct(t); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM pgbench_branches")) {
            rs.next();
            return Math.max(1, rs.getInt(1));
        } catch (SQLException e) {
            if ("42P01".equals(e.getSQLState())) {
                throw new IllegalStateException("pgbench tables missing in database " + database
                        + ": run 'pgbench -i' against it first", e);
            }
            throw e;
        }
    }

    private void prepareCopyTable(Target t) throws SQLException {
        try (Connection c = direct(t); Statement s = c.createStatement()) {
            s.execute("CREATE UNLOGGED TABLE IF NOT EXISTS sluice_compat_copy (id int, note text)");
            s.execute("TRUNCATE sluice_compat_copy");
        }
    }

    private Connection direct(Target t) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user);
        if (password != null) {
            p.setProperty("password", password);
        }
        p.setProperty("connectTimeout", "30");
        p.setProperty("socketTimeout", "60");
        return DriverManager.getConnection("jdbc:postgresql://" + t.host() + ":" + t.port() + "/" + database, p);
    }
}
