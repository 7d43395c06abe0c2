package io.sluice.util;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class TurnClockTest {
    private final TurnClock clock = new TurnClock();

    /** Waits until the system clock has moved past {@code t}, so a fresh reading would differ. */
    private static void pastOf(long t) {
        while (System.nanoTime() == t) {
            Thread.onSpinWait();
        }
    }

    @Test
    void aTurnReadsTheSystemClockOnceAtItsFirstAsk() {
        long before = System.nanoTime();
        clock.turnStarted();
        pastOf(before);
        long first = clock.nanoTime();
        assertThat(first).as("read at the first ask, not at the turn's start").isGreaterThan(before);
        pastOf(first);
        assertThat(clock.nanoTime()).isEqualTo(first);
        clock.turnEnded();
        assertThat(clock.nanoTime()).as("between turns: the system clock").isGreaterThan(first);
    }

    @Test
    void eachTurnReadsAfresh() {
        clock.turnStarted();
        long first = clock.nanoTime();
        clock.turnEnded();
        pastOf(first);
        clock.turnStarted();
        assertThat(clock.nanoTime()).isGreaterThan(first);
        clock.turnEnded();
    }

    @Test
    void anotherThreadReadsTheSystemClockDuringATurn() throws Exception {
        clock.turnStarted();
        long cached = clock.nanoTime();
        pastOf(cached);
        long other = CompletableFuture.supplyAsync(clock::nanoTime).get();
        assertThat(other).isGreaterThan(cached);
        assertThat(clock.nanoTime()).isEqualTo(cached);
        clock.turnEnded();
    }

    @Test
    void theWallClockIsReadOncePerTurnToo() {
        clock.turnStarted();
        long first = clock.currentTimeMillis();
        long until = System.currentTimeMillis() + 2;
        while (System.currentTimeMillis() < until) {
            Thread.onSpinWait();
        }
        assertThat(clock.currentTimeMillis()).as("the turn's reading").isEqualTo(first);
        clock.turnEnded();
        assertThat(clock.currentTimeMillis()).as("between turns: the system clock").isGreaterThan(first);
        clock.turnStarted();
        assertThat(clock.currentTimeMillis()).as("a new turn reads afresh").isGreaterThan(first);
        clock.turnEnded();
    }
}
