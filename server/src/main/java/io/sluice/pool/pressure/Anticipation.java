package io.sluice.pool.pressure;

import io.sluice.pool.TransactionLatency;
import io.sluice.util.Randomness;

/**
 * The adaptive, jittered time budgets of phases 4 and 5, derived from the pool's recent
 * transaction times.
 *
 * <p>Phase 4 (direct handoff) deadline: {@code min(remaining query_wait_timeout − 500 ms,
 * adaptive cap)} with ±20 % jitter, then capped by a per-checkout hard cap drawn uniformly in
 * 300–500 ms. Adaptive cap (Sluice's choice; the design leaves the formula open):
 * {@code 2 × xact_p99} clamped to [5 ms, 500 ms]. Rationale: if none of the leased connections
 * comes back within twice the p99 transaction time, they are stuck in long transactions and a
 * connect is worth its cost.
 *
 * <p>Phase 5 (burst gate) loop budget: {@code xact_p99 × 2 ± 20 %} clamped to [20 ms, 500 ms].
 *
 * <p>Before the pool has seen a transaction both use {@link #NO_SAMPLES_GUESS} (20 ms): a cold
 * pool in a burst has no latency to go by, and waiting up to the 300–500 ms hard cap there made
 * a herd on a cold pool open about one backend per cap while its clients queued. The first
 * finished transactions replace the guess within milliseconds.
 */
public final class Anticipation {
    static final long MS = 1_000_000L;
    static final long RESERVE_FOR_CONNECT = 500 * MS;
    static final long HARD_CAP_MIN = 300 * MS;
    static final long HARD_CAP_MAX = 500 * MS;
    static final long ADAPTIVE_CAP_MIN = 5 * MS;
    static final long ADAPTIVE_CAP_MAX = 500 * MS;
    static final long BUDGET_MIN = 20 * MS;
    static final long BUDGET_MAX = 500 * MS;
    static final double JITTER = 0.20;
    static final long NO_SAMPLES_GUESS = 20 * MS;

    private final TransactionLatency latency;
    private final Randomness random;

    public Anticipation(TransactionLatency latency, Randomness random) {
        this.latency = latency;
        this.random = random;
    }

    /** The adaptive cap before jitter. */
    public long adaptiveCap() {
        long p99 = latency.p99();
        if (p99 < 0) {
            return NO_SAMPLES_GUESS;
        }
        return clamp(saturatingTimes2(p99), ADAPTIVE_CAP_MIN, ADAPTIVE_CAP_MAX);
    }

    /**
     * How long a checkout may wait for a direct handoff; 0 means skip phase 4.
     *
     * @param remaining what is left of the checkout's query_wait_timeout budget ({@link Long#MAX_VALUE} if unbounded)
     */
    public long handoffDeadline(long remaining) {
        long base = remaining == Long.MAX_VALUE ? Long.MAX_VALUE : remaining - RESERVE_FOR_CONNECT;
        long d = Math.min(base, adaptiveCap());
        if (d <= 0) {
            return 0;
        }
        long jittered = random.jitter(d, JITTER);
        long hardCap = random.between(HARD_CAP_MIN, HARD_CAP_MAX + 1);
        return Math.max(1, Math.min(jittered, hardCap));
    }

    /** How long a checkout at a full burst gate keeps taking handoffs before it insists on a slot. */
    public long burstBudget() {
        long p99 = latency.p99();
        long base = p99 < 0 ? NO_SAMPLES_GUESS : saturatingTimes2(p99);
        return clamp(random.jitter(base, JITTER), BUDGET_MIN, BUDGET_MAX);
    }

    private static long saturatingTimes2(long v) {
        return v > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : v * 2;
    }

    private static long clamp(long v, long lo, long hi) {
        return Math.max(lo, Math.min(hi, v));
    }
}
