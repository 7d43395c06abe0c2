package io.sluice.compat.suite;

import io.sluice.testkit.Encryption;
import io.sluice.testkit.PgBouncerProcess;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.SluiceProcess;
import io.sluice.testkit.Userlist;

import java.nio.file.Path;
import java.util.Map;

/**
 * The pair under comparison, one per test JVM: Debian's PgBouncer and the Sluice server jar,
 * started from the same pgbouncer.ini text (only the listen port and socket dir differ, which
 * the testkit forces) in front of one database on the shared PostgreSQL cluster. Aliases:
 * {@code compat} (transaction pool), {@code compat_session} (session pool), {@code compat_small}
 * (transaction pool of 3), {@code compat_stats} (transaction pool that only the statistics test
 * uses, so its averages are that test's own queries). A missing PgBouncer is a failure, never a skip. Thread-safe.
 */
final class CompatTargets {
    static final String USER = "compat_user";
    static final String PASSWORD = "compat-pw";
    static final int SMALL_POOL = 3;

    private static CompatTargets instance;

    final PgCluster pg;
    final String database;
    final PgBouncerProcess pgbouncer;
    final SluiceProcess sluice;

    private CompatTargets(PgCluster pg, String database, PgBouncerProcess pgbouncer, SluiceProcess sluice) {
        this.pg = pg;
        this.database = database;
        this.pgbouncer = pgbouncer;
        this.sluice = sluice;
    }

    static synchronized CompatTargets get() {
        if (instance == null) {
            if (!PgBouncerProcess.available()) {
                throw new AssertionError("PgBouncer is required for the compatibility suite: " + PgBouncerProcess.binary()
                        + " missing (apt-get install pgbouncer; .ci/run does)");
            }
            PgCluster pg = PgCluster.shared();
            String db = PgCluster.uniqueName("compat");
            if (pg.query("SELECT 1 FROM pg_roles WHERE rolname = '" + USER + "'").isEmpty()) {
                pg.createUser(USER, PASSWORD, Encryption.MD5);
            }
            pg.createDatabase(db, USER);
            String ini = ini(pg.port(), db);
            String userlist = Userlist.md5Entry(USER, PASSWORD);
            PgBouncerProcess pgb = PgBouncerProcess.start(ini, userlist);
            SluiceProcess sl = new SluiceProcess(jar()).ini(ini).userlist(userlist).start();
            instance = new CompatTargets(pg, db, pgb, sl);
        }
        return instance;
    }

    static String ini(int pgPort, String db) {
        String target = "host=127.0.0.1 port=" + pgPort + " dbname=" + db;
        return "[databases]\n"
                + "compat = " + target + "\n"
                + "compat_session = " + target + " pool_mode=session\n"
                + "compat_small = " + target + " pool_size=" + SMALL_POOL + "\n"
                + "compat_stats = " + target + "\n"
                + "[pgbouncer]\n"
                + "auth_type = md5\n"
                + "pool_mode = transaction\n"
                + "default_pool_size = 10\n"
                + "max_client_conn = 400\n"
                + "admin_users = " + USER + "\n"
                + "stats_users = " + USER + "\n"
                + "ignore_startup_parameters = extra_float_digits\n"
                + "log_connections = 0\n"
                + "log_disconnections = 0\n";
    }

    static Path jar() {
        return Path.of(System.getProperty("sluice.jar", "../../server/target/sluice.jar"));
    }

    /** Both targets by name, PgBouncer first. */
    Map<String, Integer> ports() {
        return Map.of("pgbouncer", pgbouncer.port(), "sluice", sluice.port());
    }

    WireClient login(int port, String db) throws java.io.IOException {
        return WireClient.connect(port, db, USER, PASSWORD, Map.of());
    }
}
