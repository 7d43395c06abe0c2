package io.sluice.it;

import io.sluice.testkit.Jdbc;
import io.sluice.testkit.PgCluster;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Issue 2, acceptance 4: Statement.cancel() reaches the right backend and only that one. */
class CancelIT {
    @Test
    void cancelStopsOnlyTheCancelledQuery() throws Exception {
        PgCluster pg = PgCluster.shared();
        Properties p = new Properties();
        try (SluiceFixture sluice = SluiceFixture.start(pg, "postgres = host=127.0.0.1 port=$PGPORT",
                "auth_type = trust\npool_mode = transaction\nignore_startup_parameters = extra_float_digits",
                "\"postgres\" \"\"\n");
             Connection victim = Jdbc.connect("127.0.0.1", sluice.port, "postgres", "postgres", null, p);
             Connection bystander = Jdbc.connect("127.0.0.1", sluice.port, "postgres", "postgres", null, p);
             Statement sleeping = victim.createStatement();
             Statement other = bystander.createStatement()) {
            CountDownLatch bystanderStarted = new CountDownLatch(1);
            CompletableFuture<Double> bystanderResult = CompletableFuture.supplyAsync(() -> {
                try {
                    bystanderStarted.countDown();
                    var rs = other.executeQuery("select 1.5 from pg_sleep(2)");
                    rs.next();
                    return rs.getDouble(1);
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(bystanderStarted.await(10, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<Void> canceller = CompletableFuture.runAsync(() -> {
                try {
                    // the cancel is only meaningful once pg_sleep runs; wait until PostgreSQL shows it
                    io.sluice.testkit.Await.until(java.time.Duration.ofSeconds(10), () -> !pg.query(
                            "select pid from pg_stat_activity where query like 'select pg_sleep(30)%'").isEmpty(),
                            "pg_sleep(30) running");
                    sleeping.cancel();
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            long start = System.nanoTime();
            assertThatThrownBy(() -> sleeping.executeQuery("select pg_sleep(30)"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("57014"));
            canceller.get(10, TimeUnit.SECONDS);
            long cancelledAfterMs = (System.nanoTime() - start) / 1_000_000;
            assertThat(cancelledAfterMs).as("query ended long before its 30 s").isLessThan(15_000);
            System.out.println("cancel: pg_sleep(30) ended with 57014 after " + cancelledAfterMs + " ms");
            assertThat(bystanderResult.get(30, TimeUnit.SECONDS)).isEqualTo(1.5);
            try (var rs = victim.createStatement().executeQuery("select 2")) {
                rs.next();
                assertThat(rs.getInt(1)).as("victim connection still usable").isEqualTo(2);
            }
        }
    }
}
