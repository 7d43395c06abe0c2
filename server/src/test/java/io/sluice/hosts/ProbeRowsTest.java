package io.sluice.hosts;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ProbeRowsTest {
    @Test
    void readsTheSelfRowAndTheStandbyRows() {
        ProbeResult p = ProbeRows.parse(List.of(
                Arrays.asList("self", "false", null, null, ""),
                Arrays.asList("standby", "127.0.0.1", "1.250000", "157286400", "walreceiver"),
                Arrays.asList("standby", null, null, "0", "other")));
        assertThat(p.reachable()).isTrue();
        assertThat(p.inRecovery()).isFalse();
        assertThat(p.standbys()).containsExactly(
                new ProbeResult.Standby("127.0.0.1", "walreceiver", 1.25, 157286400L),
                new ProbeResult.Standby(null, "other", null, 0L));
        ProbeResult r = ProbeRows.parse(List.<List<String>>of(Arrays.asList("self", "true", "0", "0", "r1")));
        assertThat(r.inRecovery()).isTrue();
        assertThat(r.ownLagSeconds()).isZero();
        assertThat(ProbeRows.parse(List.of()).reachable()).isFalse();
    }
}
