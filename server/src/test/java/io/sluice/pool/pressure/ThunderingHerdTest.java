package io.sluice.pool.pressure;

import static io.sluice.pool.pressure.Harness.MS;
import static io.sluice.pool.pressure.Harness.S;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.pool.fakes.Settings;
import io.sluice.pool.fakes.TestWaiter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ThunderingHerdTest {

    @Test
    void twoHundredCheckoutsAtOnceOnAPoolOfFortyWithFourIdle() {
        Settings s = new Settings();
        s.poolSize = 40;
        Harness h = new Harness(s, 5 * MS);
        h.warm(4);
        int before = h.connector.attempts;

        List<TestWaiter> clients = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            clients.add(h.checkoutHolding(3 * MS));
        }
        h.vt.runAll(60 * S);

        assertThat(clients).allMatch(TestWaiter::served);
        assertThat(clients).allMatch(w -> w.outcomes == 1);
        assertThat(h.connector.maxInflight).isLessThanOrEqualTo(2);
        assertThat(h.connector.maxLive).isLessThanOrEqualTo(40);
        // Most clients reuse a neighbour's connection instead of connecting.
        assertThat(h.connector.attempts - before).isLessThan(60);
        assertThat(h.pool.scaling().gateWaits()).isGreaterThan(0);
        assertThat(h.pool.snapshot().clWaiting()).isZero();
        assertThat(h.pool.snapshot().svActive()).isZero();
    }
}
