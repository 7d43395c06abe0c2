package io.sluice.pool;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TransactionLatencyTest {

    @Test
    void quantilesAreWithinOneBucketAndFollowRecentSamples() {
        TransactionLatency l = new TransactionLatency();
        assertThat(l.p99()).isEqualTo(-1);
        for (int i = 1; i <= 1000; i++) {
            l.record(i * 1_000L); // 1 µs .. 1 ms
        }
        assertThat(l.p99()).isBetween(990_000L, 1_200_000L);
        assertThat(l.p95()).isBetween(950_000L, 1_150_000L);
        for (int i = 0; i < 3 * TransactionLatency.GENERATION; i++) {
            l.record(50_000_000L);
        }
        assertThat(l.p99()).isBetween(50_000_000L, 60_000_000L);
    }

    @Test
    void p99IsWorkedOutAgainAfterAFewSamples() {
        TransactionLatency l = new TransactionLatency();
        l.record(1_000_000L);
        assertThat(l.p99()).as("the first sample counts at once").isBetween(1_000_000L, 1_200_000L);
        for (int i = 1; i < 1000; i++) {
            l.record(1_000_000L);
        }
        long before = l.p99();
        for (int i = 0; i < TransactionLatency.P99_REFRESH - 1; i++) {
            l.record(50_000_000L);
        }
        assertThat(l.p99()).as("fewer new samples than the refresh: as it was").isEqualTo(before);
        l.record(50_000_000L);
        assertThat(l.p99()).as("1.6 % of the samples at 50 ms").isBetween(50_000_000L, 60_000_000L);
    }

    @Test
    void bucketsAreMonotonic() {
        long prev = 0;
        for (long n = 1; n < (1L << 40); n = n * 3 / 2 + 1) {
            long ub = TransactionLatency.upperBound(TransactionLatency.bucket(n));
            assertThat(ub).isGreaterThanOrEqualTo(Math.min(n, 1L << 37));
            assertThat(ub).isGreaterThanOrEqualTo(prev);
            prev = ub;
        }
    }
}
