package io.sluice.session;

import io.sluice.pool.fakes.VirtualScheduler;
import io.sluice.session.SessionTimers.Slot;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The lazy slots: a timer armed and called off around every transaction schedules rarely, yet fires on time. */
class SessionTimersTest {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private final VirtualScheduler loop = new VirtualScheduler();
    private final SessionTimers timers = new SessionTimers(loop, loop);
    private final AtomicInteger fired = new AtomicInteger();

    @Test
    void armingAndCancellingPerTransactionKeepsOneScheduledTask() {
        for (int i = 0; i < 1000; i++) {
            timers.arm(Slot.WAIT_NOTICE, 6 * SECOND, fired::incrementAndGet);
            timers.cancel(Slot.WAIT_NOTICE);
            loop.advance(1_000_000); // 1 ms per transaction
        }
        assertEquals(1, loop.queued(), "one wake-up at most, not one per transaction");
        loop.advance(10 * SECOND);
        assertEquals(0, fired.get(), "a called-off timer never fires");
        assertEquals(0, loop.queued(), "the stale wake-up ends without scheduling again");
    }

    @Test
    void aLaterDeadlineFiresAtItsOwnTimeNotTheFirstOne() {
        timers.arm(Slot.IDLE, 5 * SECOND, fired::incrementAndGet);
        loop.advance(3 * SECOND);
        timers.arm(Slot.IDLE, 5 * SECOND, fired::incrementAndGet); // due at 8 s now
        loop.advance(2 * SECOND);
        assertEquals(0, fired.get(), "the first wake-up (5 s) sleeps on");
        assertTrue(timers.armed(Slot.IDLE));
        loop.advance(3 * SECOND - 1);
        assertEquals(0, fired.get());
        loop.advance(1);
        assertEquals(1, fired.get());
        assertFalse(timers.armed(Slot.IDLE));
    }

    @Test
    void anEarlierDeadlineReplacesTheWakeUp() {
        timers.arm(Slot.QUERY, 10 * SECOND, fired::incrementAndGet);
        timers.arm(Slot.QUERY, 2 * SECOND, fired::incrementAndGet);
        loop.advance(2 * SECOND);
        assertEquals(1, fired.get());
        loop.advance(20 * SECOND);
        assertEquals(1, fired.get(), "the replaced wake-up was cancelled");
        assertEquals(0, loop.queued());
    }

    @Test
    void slotsCountIndependentlyAndCancelAllLeavesNothingScheduled() {
        AtomicInteger transaction = new AtomicInteger();
        timers.arm(Slot.QUERY, SECOND, fired::incrementAndGet);
        timers.arm(Slot.TRANSACTION, 3 * SECOND, transaction::incrementAndGet);
        loop.advance(SECOND);
        assertEquals(1, fired.get());
        assertEquals(0, transaction.get());
        timers.cancelAll();
        loop.advance(5 * SECOND);
        assertEquals(0, transaction.get());
        assertFalse(timers.armed(Slot.TRANSACTION));
    }

    @Test
    void aZeroDelayTurnsTheSlotOff() {
        timers.arm(Slot.IDLE, SECOND, fired::incrementAndGet);
        timers.arm(Slot.IDLE, 0, fired::incrementAndGet);
        assertFalse(timers.armed(Slot.IDLE));
        loop.advance(2 * SECOND);
        assertEquals(0, fired.get());
    }

    @Test
    void aTimerThatFiredIsOffAndMayBeArmedAgainEvenFromItsOwnAction() {
        timers.arm(Slot.IDLE, SECOND, () -> {
            fired.incrementAndGet();
            timers.arm(Slot.IDLE, SECOND, fired::incrementAndGet); // client_idle_timeout re-armed
        });
        loop.advance(SECOND);
        assertEquals(1, fired.get());
        assertTrue(timers.armed(Slot.IDLE), "armed again by its action");
        timers.cancel(Slot.QUERY); // another slot, off: nothing changes here
        assertTrue(timers.armed(Slot.IDLE));
        loop.advance(SECOND);
        assertEquals(2, fired.get());
        assertFalse(timers.armed(Slot.IDLE));
        timers.cancel(Slot.IDLE); // off already
        timers.arm(Slot.IDLE, SECOND, fired::incrementAndGet);
        loop.advance(SECOND);
        assertEquals(3, fired.get());
    }
}
