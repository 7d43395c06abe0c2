package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.PgBouncerProcess;
import io.sluice.testkit.PgCluster;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 12 item 8: a cancel meant for one client never reaches another client's query. One
 * server (pool_size = 1, transaction pooling); client B waits for it while client A ends its
 * transaction with a short query and, at the same moment, cancels it. If the pooler handed the
 * server to B before PostgreSQL had processed A's cancel, B's query would die with 57014. A
 * pooler must keep the server out of the pool until the cancel has completed (PgBouncer's
 * sv_being_canceled, since 1.18). 200 rounds on Sluice and on PgBouncer 1.18, 0 misdirected.
 */
class CancelRaceIT {
    private static final int ROUNDS = 200;
    private static final String USERS = "\"postgres\" \"\"\n";
    private static final String SETTINGS = "auth_type = trust\npool_mode = transaction\ndefault_pool_size = 1\n"
            + "admin_users = postgres\n";

    /** What the rounds did: A's cancel hit A, hit nothing, or hit B (misdirected). */
    record Tally(int cancelledA, int missed, int misdirected) {
    }

    @Test
    void aCancelNeverReachesAnotherClientsQuery() throws Exception {
        PgCluster pg = PgCluster.shared();
        String databases = "postgres = host=127.0.0.1 port=" + pg.port();
        Map<String, Tally> tallies = new LinkedHashMap<>();
        try (SluiceFixture sluice = SluiceFixture.start(pg, databases, SETTINGS, USERS)) {
            tallies.put("Sluice", race(sluice.port));
        }
        if (PgBouncerProcess.available()) {
            try (PgBouncerProcess pgb = PgBouncerProcess.start("[databases]\n" + databases + "\n[pgbouncer]\n"
                    + SETTINGS, USERS)) {
                tallies.put("PgBouncer " + PgBouncerProcess.version(), race(pgb.port()));
            }
        }
        System.out.println("cancel race, " + ROUNDS + " rounds: " + tallies);
        tallies.forEach((pooler, t) -> {
            assertThat(t.misdirected()).as(pooler + ": cancels that reached the other client").isZero();
            assertThat(t.cancelledA()).as(pooler + ": the race was run (some cancels did land)").isPositive();
        });
    }

    private static Tally race(int port) throws Exception {
        int cancelledA = 0;
        int missed = 0;
        int misdirected = 0;
        try (RawClient a = login(port, "postgres"); RawClient b = login(port, "postgres");
             RawClient console = login(port, "pgbouncer")) {
            for (int round = 0; round < ROUNDS; round++) {
                assertThat(a.readAfter("begin")).isNull();
                b.send(RawClient.query("select pg_sleep(0.1) /* b */"));
                Await.until(Duration.ofSeconds(10), () -> waiting(console) == 1, "B waits for the server");
                // A's last query takes 0-9 ms: about as long as a cancel takes to reach PostgreSQL
                a.send(RawClient.query("select pg_sleep(" + (round % 10) / 1000.0 + "); commit"));
                CancelKeyIT.sendCancel(port, a.backendPid, a.backendSecret);
                Map<Character, String> aError = a.readUntilReadyOrError();
                if (aError != null) {
                    assertThat(aError).containsEntry('C', "57014");
                    cancelledA++;
                    assertThat(a.readUntilReadyOrError()).isNull();
                    assertThat(a.readAfter("rollback")).isNull();
                } else {
                    missed++;
                }
                Map<Character, String> bError = b.readUntilReadyOrError();
                if (bError != null) {
                    assertThat(bError).containsEntry('C', "57014");
                    misdirected++;
                    assertThat(b.readUntilReadyOrError()).isNull();
                }
            }
        }
        return new Tally(cancelledA, missed, misdirected);
    }

    private static int waiting(RawClient console) {
        try {
            List<List<String>> rows = console.rows("show pools");
            return rows.stream().filter(r -> r.get(0).equals("postgres")).mapToInt(r -> Integer.parseInt(r.get(3)))
                    .sum();
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static RawClient login(int port, String database) throws Exception {
        RawClient c = new RawClient(port);
        c.send(RawClient.startup(Map.of("user", "postgres", "database", database)));
        assertThat(c.readUntilReadyOrError()).isNull();
        return c;
    }
}
