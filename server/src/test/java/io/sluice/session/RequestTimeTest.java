package io.sluice.session;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** request_time is when a read's first message came, read from the clock once per read. */
class RequestTimeTest {
    @Test
    void theFirstMessageOfEachReadSetsTheTime() {
        AtomicLong clock = new AtomicLong(1_000);
        AtomicLong reads = new AtomicLong();
        RequestTime t = new RequestTime(() -> {
            reads.incrementAndGet();
            return clock.get();
        });
        assertThat(t.millis()).as("nothing sent yet").isZero();

        t.message(); // Parse, Bind, Describe, Execute, Sync in one read
        clock.set(1_005);
        t.message();
        t.message();
        assertThat(t.millis()).isEqualTo(1_000);
        assertThat(reads).hasValue(1);

        t.readEnded();
        clock.set(2_000);
        t.message();
        assertThat(t.millis()).as("the next read is a new request").isEqualTo(2_000);
        assertThat(reads).hasValue(2);
    }
}
