package io.sluice.pool.pressure;

import static io.sluice.pool.pressure.Harness.MS;
import static io.sluice.pool.pressure.Harness.S;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.pool.fakes.LoopingClient;
import io.sluice.pool.fakes.Settings;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Steady demand above the servers a pool holds must grow the pool, as PgBouncer does whenever a
 * client waits. Regression: each waiter got a handoff within its anticipation deadline (one
 * transaction time, the deadline being two), so 10 clients ran on about 5 servers for good at
 * half PgBouncer's throughput, and under max_db_connections a pool never asked for a permit.
 */
class SteadyDemandTest {
    static final long HOLD = 20 * MS;
    static final long THINK = MS / 10;

    @Test
    void tenClientsOnAPoolOfTenGetTenServers() {
        Settings s = new Settings();
        s.poolSize = 10;
        Harness h = new Harness(s, 2 * MS);
        h.warm(5);                                 // past the warm threshold: anticipation applies
        long end = h.vt.nanoTime() + 2 * S;
        List<LoopingClient> clients = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            clients.add(LoopingClient.start(h.vt, h.pool, HOLD, THINK, h.vt.nanoTime(), end));
        }
        h.vt.runAll(10 * S);

        int done = clients.stream().mapToInt(c -> c.transactions).sum();
        long ideal = 10 * 2 * S / (HOLD + THINK);
        assertThat(h.connector.maxLive).isEqualTo(10);
        assertThat(h.connector.maxInflight).isLessThanOrEqualTo(2);
        assertThat(done).as("transactions of 10 clients in 2 s").isGreaterThan((int) (ideal * 0.95));
        assertThat(clients).allMatch(c -> c.failure == null);
    }

    @Test
    void aLineThatReturnsAbsorbCreatesNothing() {
        // 6 clients on 5 servers but each thinks 30 ms between 20 ms transactions: a return always
        // finds the line empty or of one, so nobody is pushed to connect.
        Settings s = new Settings();
        s.poolSize = 10;
        Harness h = new Harness(s, 2 * MS);
        h.warm(5);
        int before = h.connector.attempts;
        long end = h.vt.nanoTime() + 2 * S;
        for (int i = 0; i < 6; i++) {
            LoopingClient.start(h.vt, h.pool, HOLD, 30 * MS, h.vt.nanoTime() + i * 8 * MS, end);
        }
        h.vt.runAll(10 * S);
        assertThat(h.connector.attempts - before).isZero();
    }
}
