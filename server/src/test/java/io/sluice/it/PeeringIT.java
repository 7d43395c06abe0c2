package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.Jdbc;
import io.sluice.testkit.PgCluster;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 17, acceptance 1 and 4: three Sluice processes on one port with so_reuseport and
 * peering. The kernel spreads both the clients and their cancel requests over the processes, so
 * most cancels land on a process that does not know the key and must forward it to the peer the
 * key names. Every one of 200 cancels must stop its own query (57014) and no other.
 */
class PeeringIT {
    private static final int PROCESSES = 3;
    private static final int CLIENTS = 20;
    private static final int ROUNDS = 10;

    @Test
    void everyCancelReachesItsQueryWhicheverProcessItLandsOn() throws Exception {
        PgCluster pg = PgCluster.shared();
        String db = PgCluster.uniqueName("peers");
        pg.createDatabase(db, PgCluster.SUPERUSER);
        Properties props = new Properties();
        props.setProperty("socketTimeout", "60");
        List<Connection> clients = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        try (ReusePortGroup group = new ReusePortGroup(PROCESSES, db + " = host=127.0.0.1 port=" + pg.port(),
                "pool_mode = transaction\ndefault_pool_size = 30", List.of())) {
            for (int id = 1; id <= PROCESSES; id++) {
                group.start(id);
            }
            for (int i = 0; i < CLIENTS; i++) {
                clients.add(Jdbc.connect("127.0.0.1", group.port, db, "postgres", null, props));
            }
            int[] perProcess = new int[PROCESSES + 1];
            int spread = 0;
            for (int id = 1; id <= PROCESSES; id++) {
                perProcess[id] = (int) group.console(id, "SHOW CLIENTS").stream().filter(r -> r[2].equals(db)).count();
                spread += perProcess[id] > 0 ? 1 : 0;
            }
            assertThat(perProcess[1] + perProcess[2] + perProcess[3]).isEqualTo(CLIENTS);
            assertThat(spread).as("processes the kernel gave clients to").isGreaterThanOrEqualTo(2);

            long start = System.nanoTime();
            Random random = new Random();
            for (int round = 0; round < ROUNDS; round++) {
                cancelEachInTurn(pg, db, clients, pool, random);
            }
            long ms = (System.nanoTime() - start) / 1_000_000;

            int forwardedTo = 0;
            for (int id = 1; id <= PROCESSES; id++) {
                List<String[]> rows = group.console(id, "SHOW PEER_POOLS");
                forwardedTo += rows.size();
                for (String[] r : rows) {
                    assertThat(Integer.parseInt(r[0])).as("a peer pool names another peer").isNotEqualTo(id);
                    assertThat(r).as("nothing left in flight").containsExactly(r[0], "0", "0", "0", "0");
                }
            }
            assertThat(forwardedTo).as("peer pools that forwarding opened, over all processes").isPositive();
            System.out.printf("peering: %d cancels over %d processes (clients %d/%d/%d), all 57014, none"
                    + " misdirected, in %d ms; %d peer pools used%n", ROUNDS * CLIENTS, PROCESSES,
                    perProcess[1], perProcess[2], perProcess[3], ms, forwardedTo);

            checkConsole(group);
            clients.forEach(Queries::closeQuietly); // SIGTERM, which the group stops with, waits for clients
        } finally {
            clients.forEach(Queries::closeQuietly);
            pool.shutdownNow();
        }
    }

    /**
     * Every client runs pg_sleep(60); then each is cancelled in random order. A client whose query
     * ended before its own cancel was sent was hit by someone else's: that fails the test.
     */
    private static void cancelEachInTurn(PgCluster pg, String db, List<Connection> clients, ExecutorService pool,
                                         Random random) throws Exception {
        List<Statement> statements = new ArrayList<>();
        List<CompletableFuture<Long>> ended = new ArrayList<>();
        for (Connection c : clients) {
            Statement st = c.createStatement();
            statements.add(st);
            ended.add(CompletableFuture.supplyAsync(() -> {
                try {
                    st.executeQuery("select pg_sleep(60)");
                    throw new IllegalStateException("pg_sleep(60) was not cancelled");
                } catch (SQLException e) {
                    if (!"57014".equals(e.getSQLState())) {
                        throw new IllegalStateException("not a cancel: " + e.getSQLState() + " " + e.getMessage(), e);
                    }
                    return System.nanoTime();
                }
            }, pool));
        }
        Await.until(Duration.ofSeconds(20), () -> sleeping(pg, db) == clients.size(), "all pg_sleep(60) running");
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < clients.size(); i++) {
            order.add(i);
        }
        Collections.shuffle(order, random);
        long[] cancelSent = new long[clients.size()];
        for (int i : order) {
            cancelSent[i] = System.nanoTime();
            statements.get(i).cancel(); // pgjdbc returns once Sluice has closed the cancel connection
            long endedAt = ended.get(i).get(10, TimeUnit.SECONDS);
            assertThat(endedAt).as("client %d's query ended after its own cancel was sent", i)
                    .isGreaterThan(cancelSent[i]);
        }
        for (Statement st : statements) {
            st.close();
        }
    }

    private static int sleeping(PgCluster pg, String db) {
        return pg.query("select pid from pg_stat_activity where datname = '" + db
                + "' and state = 'active' and query = 'select pg_sleep(60)'").size();
    }

    /** SHOW PEERS and PEER_POOLS with PgBouncer's columns and types; SUSPEND points at the recipe. */
    private static void checkConsole(ReusePortGroup group) {
        List<String[]> peers = group.console(2, "SHOW PEERS");
        assertThat(peers).hasSize(PROCESSES);
        assertThat(peers.get(0)).containsExactly("1", group.socketDir(1).toString(), String.valueOf(group.port), "30");
        assertThat(group.consoleWithHeader(1, "SHOW PEERS").out().lines().findFirst())
                .contains("peer_id|host|port|pool_size");
        assertThat(group.consoleWithHeader(1, "SHOW PEER_POOLS").out().lines().findFirst())
                .contains("peer_id|cl_active_cancel_req|cl_waiting_cancel_req|sv_active_cancel|sv_login");
        var suspend = group.consoleWithHeader(1, "SUSPEND");
        assertThat(suspend.exitCode()).as(suspend.describe()).isNotZero();
        assertThat(suspend.stderr()).contains("not supported: SUSPEND").contains("so_reuseport = 1")
                .contains("SHUTDOWN WAIT_FOR_CLIENTS");
    }

}
