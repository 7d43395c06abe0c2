package io.sluice.pool.pressure;

import static io.sluice.pool.pressure.Harness.MS;
import static io.sluice.pool.pressure.Harness.S;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.pool.evict.Janitor;
import io.sluice.pool.fakes.Settings;
import io.sluice.pool.fakes.TestWaiter;
import org.junit.jupiter.api.Test;

class PreReplacementTest {

    @Test
    void preReplacementKeepsTheIdleQueueNonEmptyAcrossALifetimeExpiry() {
        Settings s = new Settings();
        s.poolSize = 4;
        s.serverLifetime = 100 * S;
        s.serverCheckEnabled = false;
        Harness h = new Harness(s, 5 * MS);
        h.warm(1);
        Janitor janitor = new Janitor();
        int attemptsAfterWarm = h.connector.attempts;

        for (int i = 0; i < 1500; i++) {          // 150 s: past the first connection's jittered lifetime
            assertThat(h.pool.snapshot().svIdle()).as("idle before checkout %d", i).isGreaterThan(0);
            TestWaiter w = h.checkoutHolding(1 * MS);
            assertThat(w.served()).as("hot path at %d", i).isTrue();
            h.vt.advanceMillis(100);
            janitor.tick(h.pool, h.vt.nanoTime());
        }
        assertThat(h.connector.handles.get(0).isClosed()).isTrue();
        assertThat(h.connector.attempts).isGreaterThan(attemptsAfterWarm);
        assertThat(h.waits).allMatch(n -> n == 0);
        assertThat(h.pool.size()).isLessThanOrEqualTo(4);
    }

    @Test
    void idleConnectionsThatExpireUnusedAreNotReplaced() {
        Settings s = new Settings();
        s.poolSize = 4;
        s.serverLifetime = 100 * S;
        Harness h = new Harness(s, 5 * MS);
        h.warm(3);
        h.vt.advance(121 * S);
        new Janitor().tick(h.pool, h.vt.nanoTime());
        h.vt.runAll(S);
        assertThat(h.pool.size()).isZero();
        assertThat(h.connector.attempts).isEqualTo(3);
    }
}
