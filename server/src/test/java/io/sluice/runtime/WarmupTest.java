package io.sluice.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** When the warm-up runs, and that a run in this JVM completes its rounds and stops its pooler. */
class WarmupTest {
    @AfterEach
    void clearProperty() {
        System.clearProperty(Warmup.BUDGET_PROPERTY);
    }

    @Test
    void offOnAnOrdinaryStartOnForAHandover() {
        assertThat(Warmup.budgetMillis(Map.of())).isZero();
        String self = Long.toString(ProcessHandle.current().pid());
        assertThat(Warmup.budgetMillis(Map.of(Handover.VARIABLE, self))).isEqualTo(Warmup.HANDOVER_BUDGET_MILLIS);
        // a handover from a process that is gone is no handover (Handover.from), so no warm-up either
        assertThat(Warmup.budgetMillis(Map.of(Handover.VARIABLE, "999999999"))).isZero();
    }

    @Test
    void thePropertyWinsEitherWay() {
        String self = Long.toString(ProcessHandle.current().pid());
        System.setProperty(Warmup.BUDGET_PROPERTY, "0");
        assertThat(Warmup.budgetMillis(Map.of(Handover.VARIABLE, self))).isZero();
        System.setProperty(Warmup.BUDGET_PROPERTY, "120");
        assertThat(Warmup.budgetMillis(Map.of())).isEqualTo(120);
    }

    @Test
    void aRunCompletesRoundsThroughItsOwnPooler() {
        Warmup.Outcome w = Warmup.run(200);
        assertThat(w.failure()).isNull();
        assertThat(w.rounds()).isPositive();
        // everything of the first run is gone: a second one sets its own pooler up again
        Warmup.Outcome again = Warmup.run(50);
        assertThat(again.failure()).isNull();
        assertThat(again.rounds()).isPositive();
    }
}
