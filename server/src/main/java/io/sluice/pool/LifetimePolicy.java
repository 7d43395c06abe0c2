package io.sluice.pool;

/**
 * server_lifetime arithmetic shared by the checkout path (pre-replacement) and the janitor
 * (expiry). Each connection carries a jitter factor drawn once in [0.8, 1.2); its lifetime is
 * {@code factor * server_lifetime}, so a reload of server_lifetime applies to old connections
 * too and connections created together do not expire together.
 */
public final class LifetimePolicy {
    /** ±20 % per-connection jitter of server_lifetime. */
    public static final double JITTER = 0.20;
    /** Share of its lifetime at which a checkout asks for a replacement. */
    public static final double PRE_REPLACE_AT = 0.95;
    /** Pre-replacement connects allowed at once per pool. */
    public static final int MAX_PRE_REPLACEMENTS = 3;

    private LifetimePolicy() {
    }

    /** Lifetime of one connection in nanos; 0 means single use (serverLifetime 0). */
    public static long lifetime(PooledServer s, long serverLifetime) {
        if (serverLifetime <= 0) {
            return 0;
        }
        return Math.max(1, (long) (serverLifetime * s.lifetimeFactor()));
    }

    public static boolean expired(PooledServer s, long serverLifetime, long now) {
        long life = lifetime(s, serverLifetime);
        return life > 0 && s.age(now) >= life;
    }

    public static boolean nearEnd(PooledServer s, long serverLifetime, long now) {
        long life = lifetime(s, serverLifetime);
        return life > 0 && s.age(now) >= (long) (life * PRE_REPLACE_AT);
    }
}
