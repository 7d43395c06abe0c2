package io.sluice.it;

import io.sluice.testkit.Jdbc;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 14, acceptance 1-3: session semantics with real client libraries, the same test code
 * against three targets: Sluice in transaction mode with a pool of 2 and 4+ clients keeping its
 * servers busy, Sluice in session mode, and PostgreSQL directly.
 */
class SessionSemanticsIT {
    enum Target { TRANSACTION, SESSION, DIRECT }

    static PgCluster pg;
    static String db;
    static SluiceFixture transaction;
    static SluiceFixture session;

    @BeforeAll
    static void start() throws Exception {
        pg = PgCluster.shared();
        db = PgCluster.uniqueName("semantics");
        pg.createDatabase(db, PgCluster.SUPERUSER);
        String users = "\"postgres\" \"\"\n";
        transaction = SluiceFixture.start(pg, db + " = host=127.0.0.1 port=$PGPORT pool_size=2",
                "auth_type = trust\npool_mode = transaction\nmax_client_conn = 200\nquery_wait_timeout = 60\n"
                        + "ignore_startup_parameters = extra_float_digits", users);
        session = SluiceFixture.start(pg, db + " = host=127.0.0.1 port=$PGPORT pool_size=40",
                "auth_type = trust\npool_mode = session\nmax_client_conn = 200\n"
                        + "ignore_startup_parameters = extra_float_digits", users);
    }

    @AfterAll
    static void stop() throws Exception {
        transaction.close();
        session.close();
    }

    static int port(Target t) {
        return switch (t) {
            case TRANSACTION -> transaction.port;
            case SESSION -> session.port;
            case DIRECT -> pg.port();
        };
    }

    static Connection connect(Target t, Properties extra) throws SQLException {
        return Jdbc.connect("127.0.0.1", port(t), db, "postgres", null, extra);
    }

    static Connection connect(Target t) throws SQLException {
        return connect(t, new Properties());
    }

    static Properties threshold(int n) {
        Properties p = new Properties();
        p.setProperty("prepareThreshold", String.valueOf(n));
        return p;
    }

    static Object one(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getObject(1);
        }
    }

    /** Clients that keep the pool's servers busy with short transactions until closed. */
    static final class Busy implements AutoCloseable {
        private final ExecutorService pool;
        private final List<Future<?>> runs = new ArrayList<>();
        private volatile boolean stop;

        Busy(Target t, int clients) {
            pool = Executors.newFixedThreadPool(clients);
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            for (int i = 0; i < clients; i++) {
                runs.add(pool.submit(() -> {
                    try (Connection c = connect(t); Statement st = c.createStatement()) {
                        for (int n = 0; n < 100_000 && !stop && System.nanoTime() < deadline; n++) {
                            st.execute("select pg_sleep(0.002)");
                        }
                    }
                    return null;
                }));
            }
        }

        @Override
        public void close() throws Exception {
            stop = true;
            for (Future<?> f : runs) {
                f.get(30, TimeUnit.SECONDS);
            }
            pool.shutdown();
        }
    }

    @ParameterizedTest
    @EnumSource(Target.class)
    void pgjdbcNamedStatementRunsFiveTimesWhileOthersHoldServers(Target t) throws Exception {
        Set<Integer> backends = new HashSet<>();
        try (Connection target = connect(t, threshold(1)); Connection holder = connect(t); Busy busy = new Busy(t, 2);
             PreparedStatement ps = target.prepareStatement("select pg_backend_pid(), ?::int + 1")) {
            Integer last = null;
            for (int i = 0; i < 5; i++) {
                boolean held = i % 2 == 0;
                if (held) {
                    holdServer(t, holder, last);
                }
                ps.setInt(1, i);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    assertThat(rs.getInt(2)).isEqualTo(i + 1);
                    last = rs.getInt(1);
                    backends.add(last);
                }
                if (held) {
                    holder.commit();
                    holder.setAutoCommit(true);
                }
            }
        }
        if (t == Target.TRANSACTION) {
            assertThat(backends).as("one named statement served by several backends").hasSizeGreaterThanOrEqualTo(2);
        } else {
            assertThat(backends).hasSize(1);
        }
    }

    /** Opens a transaction on {@code holder}, on the backend {@code wanted} if the pool hands it out. */
    private static void holdServer(Target t, Connection holder, Integer wanted) throws SQLException {
        for (int attempt = 0; attempt < 50; attempt++) {
            holder.setAutoCommit(false);
            int pid = ((Number) one(holder, "select pg_backend_pid()")).intValue();
            if (t != Target.TRANSACTION || wanted == null || pid == wanted) {
                return;
            }
            holder.commit();
        }
    }

    static Stream<Arguments> targetsAndThresholds() {
        return Stream.of(Target.values()).flatMap(t -> Stream.of(Arguments.of(t, 5), Arguments.of(t, 1)));
    }

    @ParameterizedTest
    @MethodSource("targetsAndThresholds")
    void twentyConnectionsFiftyTransactionsWithAutoPrepare(Target t, int prepareThreshold) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(20);
        List<Future<Integer>> runs = new ArrayList<>();
        for (int n = 0; n < 20; n++) {
            runs.add(pool.submit(() -> {
                int done = 0;
                try (Connection c = connect(t, threshold(prepareThreshold));
                     PreparedStatement ps = c.prepareStatement("select ?::int * 2")) {
                    c.setAutoCommit(false);
                    for (int i = 0; i < 50; i++) {
                        ps.setInt(1, i);
                        try (ResultSet rs = ps.executeQuery()) {
                            rs.next();
                            assertThat(rs.getInt(1)).isEqualTo(2 * i);
                        }
                        c.commit();
                        done++;
                    }
                }
                return done;
            }));
        }
        int total = 0;
        for (Future<Integer> f : runs) {
            total += f.get(2, TimeUnit.MINUTES);
        }
        pool.shutdown();
        assertThat(total).isEqualTo(1000);
    }

    @ParameterizedTest
    @EnumSource(Target.class)
    void aSetIsSeenByItsClientOnlyInLaterTransactions(Target t) throws Exception {
        try (Connection a = connect(t); Connection b = connect(t); Busy busy = new Busy(t, 2)) {
            try (Statement st = a.createStatement()) {
                st.execute("SET statement_timeout = '4321ms'");
            }
            for (int i = 0; i < 10; i++) {
                assertThat(one(a, "show statement_timeout")).isEqualTo("4321ms");
                assertThat(one(b, "show statement_timeout")).isNotEqualTo("4321ms");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Target.class)
    void listenNotifyBetweenTwoClients(Target t) throws Exception {
        try (Connection a = connect(t); Connection b = connect(t); Busy busy = new Busy(t, 2)) {
            try (Statement st = a.createStatement()) {
                st.execute("LISTEN sluice_jobs");
            }
            try (Statement st = b.createStatement()) {
                st.execute("NOTIFY sluice_jobs, 'hello'");
            }
            PGNotification[] got = a.unwrap(PGConnection.class).getNotifications(10_000);
            assertThat(got).as("notification reached the idle listener").isNotNull().hasSize(1);
            assertThat(got[0].getParameter()).isEqualTo("hello");
        }
    }

    @ParameterizedTest
    @EnumSource(Target.class)
    void aTemporaryTableLastsAcrossTransactions(Target t) throws Exception {
        try (Connection a = connect(t, threshold(1)); Busy busy = new Busy(t, 3)) {
            try (Statement st = a.createStatement()) {
                st.execute("CREATE TEMP TABLE sluice_t (v int)");
            }
            try (PreparedStatement ins = a.prepareStatement("insert into sluice_t values (?)")) {
                for (int i = 0; i < 3; i++) {
                    ins.setInt(1, i);
                    ins.executeUpdate();
                }
            }
            assertThat(((Number) one(a, "select count(*) from sluice_t")).intValue()).isEqualTo(3);
            try (Statement st = a.createStatement()) {
                st.execute("DROP TABLE sluice_t");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Target.class)
    void anAdvisoryLockStaysWithItsSession(Target t) throws Exception {
        try (Connection a = connect(t); Connection b = connect(t); Busy busy = new Busy(t, 2)) {
            one(a, "select pg_advisory_lock(4242)");
            assertThat(one(b, "select pg_try_advisory_lock(4242)")).isEqualTo(false);
            assertThat(one(a, "select pg_advisory_unlock(4242)")).isEqualTo(true);
            assertThat(one(b, "select pg_try_advisory_lock(4242)")).isEqualTo(true);
            one(b, "select pg_advisory_unlock(4242)");
        }
    }

    @ParameterizedTest
    @EnumSource(Target.class)
    void psqlPrepareAndExecute(Target t) throws Exception {
        StringBuilder script = new StringBuilder("PREPARE p (int) AS SELECT $1 * 2;\n");
        for (int i = 0; i < 5; i++) {
            script.append("SELECT pg_sleep(0.02);\nEXECUTE p (21);\n");
        }
        script.append("DEALLOCATE p;\n");
        ProcessResult r;
        try (Busy busy = new Busy(t, 3)) {
            // one psql session, each statement its own Query: \i runs the file statement by statement
            Path file = java.nio.file.Files.createTempFile("prepare", ".sql");
            java.nio.file.Files.writeString(file, script);
            r = ProcessRunner.psqlCommand("127.0.0.1", port(t), db, "postgres", null, "\\i " + file)
                    .timeout(Duration.ofMinutes(1)).run();
            java.nio.file.Files.delete(file);
        }
        assertThat(r.exitCode()).as(r.describe()).isZero();
        assertThat(r.stdout().lines().filter(l -> l.strip().equals("42")).count()).as(r.stdout()).isEqualTo(5);
        assertThat(r.stderr()).doesNotContain("ERROR");
    }

    static Stream<Arguments> pythonDrivers() {
        return Stream.of("psycopg2", "psycopg", "asyncpg")
                .flatMap(lib -> Stream.of(Target.values()).map(t -> Arguments.of(lib, t)));
    }

    @ParameterizedTest
    @MethodSource("pythonDrivers")
    void pythonDrivers(String lib, Target t) throws Exception {
        runsEveryCase(ProcessRunner.of(driverCommand("/usr/bin/python3", "session_semantics.py", lib, t)));
    }

    static Stream<Arguments> nodeDrivers() {
        return Stream.of("pg", "postgres")
                .flatMap(lib -> Stream.of(Target.values()).map(t -> Arguments.of(lib, t)));
    }

    /** node-postgres and postgres.js from npm, pinned in clients/node/package-lock.json. */
    @ParameterizedTest
    @MethodSource("nodeDrivers")
    void nodeDrivers(String lib, Target t) throws Exception {
        String modules = NodeClients.modules().toString();
        runsEveryCase(ProcessRunner.of(driverCommand(NodeClients.node(), "session_semantics.cjs", lib, t))
                .env("NODE_PATH", modules));
    }

    /** An interpreter running one of the clients/ scripts: LIB HOST PORT DBNAME MULTI. */
    private static List<String> driverCommand(String interpreter, String script, String lib, Target t) throws Exception {
        Path file = Path.of(SessionSemanticsIT.class.getResource("/clients/" + script).toURI());
        return List.of(interpreter, file.toString(), lib, "127.0.0.1", String.valueOf(port(t)), db,
                t == Target.TRANSACTION ? "1" : "0");
    }

    private static void runsEveryCase(ProcessRunner script) {
        ProcessResult r = script.timeout(Duration.ofMinutes(3)).run();
        assertThat(r.exitCode()).as(r.describe()).isZero();
        assertThat(r.stdout().lines().filter(l -> l.startsWith("ok ")).count()).as(r.stdout()).isEqualTo(6);
    }

    @Test
    void pgbenchPreparedInTransactionModeHasNoFailedTransactions() {
        ProcessResult init = ProcessRunner.pgbenchCommand("-i", "-s", "1", "-h", "127.0.0.1",
                "-p", String.valueOf(pg.port()), "-U", "postgres", db).timeout(Duration.ofMinutes(2)).run();
        assertThat(init.exitCode()).as(init.describe()).isZero();
        // one thread per client: pgbench prepares each command with a blocking PQprepare in the
        // middle of a transaction, so a thread driving several clients deadlocks against any
        // transaction pool smaller than its clients (PgBouncer's too)
        ProcessResult run = ProcessRunner.pgbenchCommand("-M", "prepared", "-c", "8", "-j", "8", "-T", "8",
                        "-h", "127.0.0.1", "-p", String.valueOf(transaction.port), "-U", "postgres", db)
                .timeout(Duration.ofMinutes(1)).run();
        assertThat(run.exitCode()).as(run.describe()).isZero();
        assertThat(PgbenchTransactionModeIT.number(run.stdout(), "number of failed transactions: (\\d+)")).isZero();
        assertThat(PgbenchTransactionModeIT.number(run.stdout(), "number of transactions actually processed: (\\d+)"))
                .isGreaterThan(100);
        ProcessResult selects = ProcessRunner.pgbenchCommand("-M", "prepared", "-S", "-c", "16", "-j", "2", "-T", "5",
                        "-h", "127.0.0.1", "-p", String.valueOf(transaction.port), "-U", "postgres", db)
                .timeout(Duration.ofMinutes(1)).run();
        assertThat(selects.exitCode()).as(selects.describe()).isZero();
        assertThat(PgbenchTransactionModeIT.number(selects.stdout(), "number of failed transactions: (\\d+)")).isZero();
        System.out.printf("pgbench -M prepared through Sluice (transaction mode, pool 2):%n%s%n%s%n",
                run.stdout(), selects.stdout());
    }
}
