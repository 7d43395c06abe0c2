package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.Jdbc;
import io.sluice.testkit.PgCluster;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 3, acceptance 2 and 4: 200 clients hit a cold pool of 40 at the same instant; PostgreSQL
 * never sees more than scaling_max_parallel_creates (2) startups from Sluice at once, every
 * client gets its answer, and SHOW POOL_SCALING counts the work.
 */
class ThunderingHerdIT {
    static final int CLIENTS = 200;

    @Test
    void herdOnColdPoolNeverStartsMoreThanTwoBackendsAtOnce() throws Exception {
        PgCluster pg = PgCluster.shared();
        String db = PgCluster.uniqueName("herd");
        pg.createDatabase(db, PgCluster.SUPERUSER);
        try (SluiceFixture s = SluiceFixture.start(pg, db + " = host=127.0.0.1 port=$PGPORT pool_size=40",
                "auth_type = trust\npool_mode = transaction\nmax_client_conn = 400\nadmin_users = postgres\n"
                        + "ignore_startup_parameters = extra_float_digits\nlog_connections = 0\nlog_disconnections = 0",
                "\"postgres\" \"\"\n")) {
            int logStart = pg.logText().length();
            ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
            CyclicBarrier start = new CyclicBarrier(CLIENTS);
            List<CompletableFuture<Integer>> answers = new ArrayList<>();
            try {
                for (int i = 0; i < CLIENTS; i++) {
                    int n = i;
                    answers.add(CompletableFuture.supplyAsync(() -> {
                        try {
                            start.await(30, TimeUnit.SECONDS);
                            try (Connection c = Jdbc.connect("127.0.0.1", s.port, db, "postgres", null, new Properties());
                                 Statement st = c.createStatement();
                                 ResultSet rs = st.executeQuery("select " + n + " from pg_sleep(0.01)")) {
                                rs.next();
                                return rs.getInt(1);
                            }
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    }, pool));
                }
                for (int i = 0; i < CLIENTS; i++) {
                    assertThat(answers.get(i).get(60, TimeUnit.SECONDS)).as("client " + i + "'s answer").isEqualTo(i);
                }
            } finally {
                pool.shutdownNow();
            }
            // A create the herd's demand started may still be running after the last answer:
            // wait for Sluice to finish it, and for PostgreSQL to log it, before comparing counts.
            Await.until(Duration.ofSeconds(20),
                    () -> PauseResumeIT.stat(s, "show pool_scaling", "postgres", "inflight") == 0, "no create in flight");
            long creates = PauseResumeIT.stat(s, "show pool_scaling", "postgres", "creates");
            Await.poll(Duration.ofSeconds(10),
                    () -> ConnectionStartups.of(pg.logText().substring(logStart), db).backendsCreated >= creates);
            ConnectionStartups startups = ConnectionStartups.of(pg.logText().substring(logStart), db);
            System.out.printf("herd: %d clients answered, %d backends created, peak %d startups in flight%n",
                    CLIENTS, startups.backendsCreated, startups.peakInFlight);
            assertThat(startups.backendsCreated).isBetween(1, 40);
            assertThat(startups.peakInFlight).as("connection startups in flight at once").isBetween(1, 2);
            assertThat(creates).as("SHOW POOL_SCALING creates").isEqualTo(startups.backendsCreated);
            long gateWaits = PauseResumeIT.stat(s, "show pool_scaling", "postgres", "gate_waits");
            assertThat(gateWaits).as("SHOW POOL_SCALING gate_waits").isPositive();
        }
    }
}
