package io.sluice.pool;

/**
 * Recent transaction times of one pool, for the adaptive budgets (p99) and eviction ranking
 * (p95). A fixed log-scale histogram: 4 buckets per power of two from 1 µs to ~137 s, so a
 * quantile is off by at most ~19 %. Two generations of {@value #GENERATION} samples are kept
 * and the older one dropped when the newer fills, so quantiles follow the last 1–2 k
 * transactions without timestamps. Engine thread only.
 */
public final class TransactionLatency {
    static final int GENERATION = 1024;
    private static final int MIN_EXP = 10;   // 2^10 ns ≈ 1 µs
    private static final int MAX_EXP = 37;   // 2^37 ns ≈ 137 s
    private static final int SUB = 4;
    private static final int BUCKETS = (MAX_EXP - MIN_EXP) * SUB + 2;
    static final int P99_REFRESH = 16;

    private int[] current = new int[BUCKETS];
    private int[] previous = new int[BUCKETS];
    private int currentCount;
    private int previousCount;
    /** Samples ever recorded, and the count at which {@link #p99} was last worked out (-1 until samples). */
    private long recorded;
    private long p99At;
    private long p99 = -1;

    public void record(long nanos) {
        recorded++;
        current[bucket(Math.max(0, nanos))]++;
        if (++currentCount >= GENERATION) {
            int[] t = previous;
            previous = current;
            previousCount = currentCount;
            java.util.Arrays.fill(t, 0);
            current = t;
            currentCount = 0;
        }
    }

    public boolean hasSamples() {
        return currentCount + previousCount > 0;
    }

    /** p95 in nanos (upper bound of its bucket), or -1 without samples. */
    public long p95() {
        return quantile(0.95);
    }

    /**
     * p99 in nanos (upper bound of its bucket), or -1 without samples. Worked out again once
     * {@value #P99_REFRESH} samples have come since it last was (or the first ones): a queued
     * checkout asks for it each time, a walk over all the buckets, and a bucket's bound is
     * already up to 19 % off, which a few more samples hardly move.
     */
    public long p99() {
        if (recorded - p99At >= P99_REFRESH || (p99 < 0 && recorded > p99At)) {
            p99 = quantile(0.99);
            p99At = recorded;
        }
        return p99;
    }

    public long quantile(double q) {
        int total = currentCount + previousCount;
        if (total == 0) {
            return -1;
        }
        long rank = (long) Math.ceil(q * total);
        long seen = 0;
        for (int b = 0; b < BUCKETS; b++) {
            seen += current[b] + previous[b];
            if (seen >= rank) {
                return upperBound(b);
            }
        }
        return upperBound(BUCKETS - 1);
    }

    static int bucket(long nanos) {
        if (nanos < (1L << MIN_EXP)) {
            return 0;
        }
        int exp = 63 - Long.numberOfLeadingZeros(nanos);
        if (exp >= MAX_EXP) {
            return BUCKETS - 1;
        }
        int sub = (int) ((nanos >>> (exp - 2)) & (SUB - 1));
        return 1 + (exp - MIN_EXP) * SUB + sub;
    }

    static long upperBound(int bucket) {
        if (bucket == 0) {
            return 1L << MIN_EXP;
        }
        if (bucket >= BUCKETS - 1) {
            return 1L << MAX_EXP;
        }
        int i = bucket - 1;
        int exp = MIN_EXP + i / SUB;
        int sub = i % SUB;
        return (1L << exp) + ((long) (sub + 1) << (exp - 2));
    }
}
