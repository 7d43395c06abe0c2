package io.sluice.compat;

import io.sluice.testkit.PgBouncerProcess;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessRunner;
import io.sluice.testkit.SluiceProcess;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The three things a comparison needs, however they came to be: a PostgreSQL (for the backend
 * view), a PgBouncer and a Sluice. Three ways: a throwaway PostgreSQL with a generated ini; the
 * user's pgbouncer.ini run by both poolers (only the ports differ); or addresses of running
 * ones. Owns (and stops on close) whatever it started. Used by one thread.
 */
final class Stack implements AutoCloseable {
    final Target pgbouncer;
    final Target sluice;
    final BackendObserver observer;
    final String description;
    private final List<AutoCloseable> owned = new ArrayList<>();

    private Stack(Target pgbouncer, Target sluice, BackendObserver observer, String description) {
        this.pgbouncer = pgbouncer;
        this.sluice = sluice;
        this.observer = observer;
        this.description = description;
    }

    List<Target> targets() {
        return List.of(pgbouncer, sluice);
    }

    /**
     * A throwaway PostgreSQL (connections logged with ms timestamps), pgbench tables at
     * {@code scale}, and PgBouncer and Sluice on one generated ini: database {@code postgres}
     * in transaction mode and {@code postgres_session} in session mode, trust auth, pool size
     * {@code poolSize}, admin user postgres.
     */
    static Stack throwaway(Path sluiceJar, int poolSize, int scale, int maxClients) {
        PgCluster pg = PgCluster.builder()
                .config("log_connections = on", "log_line_prefix = '%n [%p] '", "max_connections = 300")
                .start();
        try {
            ProcessRunner.pgbenchCommand("-i", "-q", "-s", Integer.toString(scale),
                            "-h", pg.host(), "-p", Integer.toString(pg.port()), "-U", PgCluster.SUPERUSER, "postgres")
                    .timeout(Duration.ofMinutes(5)).run().requireSuccess();
            String ini = "[databases]\n"
                    + "postgres = host=127.0.0.1 port=" + pg.port() + " dbname=postgres\n"
                    + "postgres_session = host=127.0.0.1 port=" + pg.port() + " dbname=postgres pool_mode=session\n"
                    + "[pgbouncer]\n"
                    + "auth_type = trust\n"
                    + "pool_mode = transaction\n"
                    + "default_pool_size = " + poolSize + "\n"
                    + "max_client_conn = " + (maxClients + 100) + "\n"
                    + "admin_users = postgres\n"
                    + "stats_users = postgres\n"
                    + "log_connections = 0\n"
                    + "log_disconnections = 0\n";
            String userlist = "\"postgres\" \"\"\n";
            Stack s = new Stack(pgbouncerTarget(ini, userlist), sluiceTarget(sluiceJar, ini, userlist),
                    BackendObserver.fromLog(pg.logFile()),
                    "throwaway PostgreSQL " + pg.port() + ", transaction pool of " + poolSize + ", pgbench scale " + scale);
            s.owned.add(pg);
            return s;
        } catch (RuntimeException e) {
            pg.stop();
            throw e;
        }
    }

    /**
     * The user's pgbouncer.ini run by both poolers: listen address and port, unix socket,
     * pidfile and logfile are replaced so the copies cannot collide with a running PgBouncer;
     * everything else is the user's. The backend view samples pg_stat_activity of the
     * database's PostgreSQL.
     */
    static Stack fromConfig(Path iniFile, Path sluiceJar, String database, String user, String password) throws java.io.IOException {
        String ini = Files.readString(iniFile);
        IniText.requireLoopbackDatabases(ini);
        Path cwd = Path.of("").toAbsolutePath();
        Map<String, String> set = new LinkedHashMap<>();
        set.put("pidfile", "");
        set.put("logfile", "");
        set.put("unix_socket_dir", "");
        for (String key : List.of("auth_file", "auth_hba_file")) {
            String v = IniText.get(ini, "pgbouncer", key);
            if (v != null && !v.isEmpty()) {
                set.put(key, IniText.absolute(v, cwd));
            }
        }
        String text = IniText.setInPgbouncer(ini, set);
        String db = IniText.section(ini, "databases").get(database);
        if (db == null) {
            db = IniText.section(ini, "databases").get("*");
        }
        BackendObserver observer = BackendObserver.none();
        if (db != null) {
            Map<String, String> cs = IniText.connString(db);
            String host = cs.getOrDefault("host", "127.0.0.1");
            if (host.isEmpty() || host.startsWith("/")) {
                host = "127.0.0.1"; // the observer needs TCP; a socket-only server shows n/a
            }
            String port = cs.getOrDefault("port", "5432");
            String dbname = cs.getOrDefault("dbname", database);
            observer = BackendObserver.sampling("jdbc:postgresql://" + host.split(",")[0] + ":" + port + "/" + dbname,
                    cs.getOrDefault("user", user), cs.getOrDefault("password", password));
        }
        return new Stack(pgbouncerTarget(text, null), sluiceTarget(sluiceJar, text, null), observer,
                "your config " + iniFile + " (only listen port, unix socket, pidfile and logfile differ)");
    }

    /** Running poolers (and optionally their PostgreSQL), all on loopback. */
    static Stack attach(String pgbouncerAddr, String sluiceAddr, String postgresAddr, String database, String user, String password) {
        Target pgb = attachedTarget("pgbouncer", pgbouncerAddr);
        Target sl = attachedTarget("sluice", sluiceAddr);
        BackendObserver observer = BackendObserver.none();
        if (postgresAddr != null) {
            String[] hp = loopbackHostPort(postgresAddr);
            observer = BackendObserver.sampling("jdbc:postgresql://" + hp[0] + ":" + hp[1] + "/" + database, user, password);
        }
        return new Stack(pgb, sl, observer, "running poolers at " + pgbouncerAddr + " and " + sluiceAddr
                + " (pools may be warm: attached targets are not restarted)");
    }

    private static Target attachedTarget(String name, String addr) {
        String[] hp = loopbackHostPort(addr);
        return Target.attached(name, hp[0], Integer.parseInt(hp[1]));
    }

    static String[] loopbackHostPort(String addr) {
        int colon = addr.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("address '" + addr + "' must be HOST:PORT");
        }
        String host = addr.substring(0, colon).replace("[", "").replace("]", "");
        String port = addr.substring(colon + 1);
        if (!port.matches("\\d{1,5}")) {
            throw new IllegalArgumentException("address '" + addr + "': bad port");
        }
        if (!IniText.isLoopbackOrSocket(host) || host.startsWith("/")) {
            throw new IllegalArgumentException("address '" + addr + "': sluice-compat sends load only to loopback (127.0.0.0/8, ::1)");
        }
        return new String[] {host, port};
    }

    private static Target pgbouncerTarget(String ini, String userlist) {
        return Target.owned("pgbouncer", () -> {
            PgBouncerProcess p = PgBouncerProcess.start(ini, userlist);
            return new Target.Running(p.port(), p);
        });
    }

    private static Target sluiceTarget(Path jar, String ini, String userlist) {
        return Target.owned("sluice", () -> {
            SluiceProcess p = new SluiceProcess(jar).ini(ini);
            if (userlist != null) {
                p.userlist(userlist);
            }
            p.start();
            return new Target.Running(p.port(), p);
        });
    }

    @Override
    public void close() {
        pgbouncer.close();
        sluice.close();
        observer.close();
        for (AutoCloseable c : owned) {
            try {
                c.close();
            } catch (Exception e) {
                System.err.println("sluice-compat: cleanup failed: " + e);
            }
        }
    }
}
