package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.sluice.it.PauseResumeIT.console;
import static io.sluice.it.PauseResumeIT.stat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** RELOAD, KILL, RECONNECT + WAIT_CLOSE and console permissions against a live Sluice. */
class AdminControlIT {
    static SluiceFixture s;
    static String db;

    @BeforeAll
    static void start() throws Exception {
        PgCluster pg = PgCluster.shared();
        db = PgCluster.uniqueName("admindb");
        pg.createDatabase(db, PgCluster.SUPERUSER);
        s = SluiceFixture.start(pg, db + " = host=127.0.0.1 port=$PGPORT",
                "auth_type = trust\npool_mode = transaction\ndefault_pool_size = 5\nadmin_users = postgres\n"
                        + "stats_users = watcher",
                "\"postgres\" \"\"\n\"watcher\" \"\"\n\"stranger\" \"\"\n");
    }

    @AfterAll
    static void stop() throws Exception {
        s.close();
    }

    static Connection connect() throws SQLException {
        return io.sluice.testkit.Jdbc.connect("127.0.0.1", s.port, db, "postgres", null);
    }

    @Test
    void reloadAppliesDefaultPoolSizeWithoutDisconnectingAnyone() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("select 1");
            assertThat(stat(s, "show databases", db, "pool_size")).isEqualTo(5);
            Path ini = s.dir.resolve("pgbouncer.ini");
            Files.writeString(ini, Files.readString(ini).replace("default_pool_size = 5", "default_pool_size = 9"));
            long clientsBefore = stat(s, "show pools", db, "cl_active");
            ProcessResult r = console(s, "reload");
            assertThat(r.exitCode()).as(r.describe()).isZero();
            assertThat(stat(s, "show databases", db, "pool_size")).isEqualTo(9);
            assertThat(stat(s, "show pools", db, "cl_active")).isEqualTo(clientsBefore);
            st.execute("select 2"); // the same client connection still works
            Files.writeString(ini, Files.readString(ini).replace("default_pool_size = 9", "default_pool_size = 5"));
            assertThat(console(s, "reload").exitCode()).isZero();
        }
    }

    @Test
    void reconnectMarksLeasedServersCloseNeededAndWaitCloseReturnsOnceTheyClose() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.execute("select 1"); // holds a server until commit
            assertThat(console(s, "reconnect " + db).exitCode()).isZero();
            assertThat(stat(s, "show servers", "S", "close_needed")).isEqualTo(1);
            CompletableFuture<ProcessResult> wait = CompletableFuture.supplyAsync(() -> console(s, "wait_close " + db));
            // two console clients: the one waiting in WAIT_CLOSE and the one asking
            Await.until(Duration.ofSeconds(10), () -> console(s, "show clients").out().lines()
                    .filter(l -> l.contains("|pgbouncer|")).count() >= 2, "WAIT_CLOSE issued");
            assertThat(wait).as("WAIT_CLOSE returns only after the leased server closed").isNotDone();
            c.commit();
            ProcessResult r = wait.get(20, TimeUnit.SECONDS);
            assertThat(r.exitCode()).as(r.describe()).isZero();
        }
    }

    @Test
    void killDropsClientsAndHoldsNewOnesUntilResume() throws Exception {
        String killDb = db;
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("select 1");
            ProcessResult k = console(s, "kill " + killDb);
            assertThat(k.exitCode()).as(k.describe()).isZero();
            assertThatThrownBy(() -> st.execute("select 1")).isInstanceOf(SQLException.class);
            assertThat(stat(s, "show databases", killDb, "paused")).isEqualTo(1);
            assertThat(stat(s, "show pools", killDb, "sv_active") + stat(s, "show pools", killDb, "sv_idle")).isZero();
        } finally {
            assertThat(console(s, "resume " + killDb).exitCode()).isZero();
        }
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("select 3");
        }
    }

    @Test
    void statsUserMayShowButGetsPgBouncersErrorOnPause() {
        ProcessResult show = ProcessRunner.psql("127.0.0.1", s.port, "pgbouncer", "watcher", null, "show stats");
        assertThat(show.exitCode()).as(show.describe()).isZero();
        ProcessResult pause = ProcessRunner.psql("127.0.0.1", s.port, "pgbouncer", "watcher", null, "pause");
        assertThat(pause.exitCode()).isNotZero();
        assertThat(pause.stderr()).contains("admin access needed");
        assertThat(stat(s, "show databases", db, "paused")).isZero();
    }

    @Test
    void userInNeitherListCannotLogInToTheConsole() {
        ProcessResult r = ProcessRunner.psql("127.0.0.1", s.port, "pgbouncer", "stranger", null, "show version");
        assertThat(r.exitCode()).isNotZero();
        assertThat(r.stderr()).contains("not allowed");
    }
}
