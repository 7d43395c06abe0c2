package io.sluice.pool.pressure;

import io.sluice.pool.LifetimePolicy;
import io.sluice.pool.PoolSettings;
import io.sluice.pool.PooledServer;
import io.sluice.pool.ServerHandle.Probe;
import io.sluice.pool.ServerState;

/**
 * The recycle check run on every connection a checkout takes (from the idle queue, which it
 * walks for the checkout, or by handoff): stale connections (closed, older reconnect epoch,
 * lifetime over) are closed; a connection left inside a transaction gets a ROLLBACK probe; one
 * idle longer than server_check_delay gets a liveness probe (state "tested" meanwhile). A
 * connection at ≥ 95 % of its lifetime triggers a pre-replacement but is still used. Engine
 * thread only.
 */
final class Recycler {
    enum Result { FIT, UNFIT, PENDING }

    private final Pool pool;

    Recycler(Pool pool) {
        this.pool = pool;
    }

    /**
     * Takes idle servers for {@code owner} in server_round_robin order (most recently returned
     * first by default) until one is fit; true when the walk stops here ({@code owner} served or
     * probing). A server whose probe fails sends {@code owner} back to {@code resumeAt}.
     */
    boolean takeIdle(Checkout owner, Checkout.Phase resumeAt) {
        PooledServer s;
        while ((s = pool.places().idle().poll(pool.settings().roundRobin())) != null) {
            switch (check(s, owner, resumeAt)) {
                case FIT -> {
                    owner.grant(s);
                    return true;
                }
                case PENDING -> {
                    return true;
                }
                case UNFIT -> { }
            }
        }
        return false;
    }

    /**
     * Checks {@code s} for {@code owner}. On PENDING the owner is probing: when the probe passes
     * the owner is granted {@code s} (or, if it no longer waits, {@code s} is returned to the
     * pool); when it fails {@code s} is closed and the owner resumes its walk at {@code resumeAt}.
     */
    Result check(PooledServer s, Checkout owner, Checkout.Phase resumeAt) {
        long now = pool.now();
        String stale = pool.staleReason(s, now);
        if (stale != null) {
            pool.closeServer(s, stale);
            return Result.UNFIT;
        }
        PoolSettings settings = pool.settings();
        if (LifetimePolicy.nearEnd(s, settings.serverLifetime(), now)) {
            pool.preReplace(s);
        }
        Probe probe = probeFor(s, settings, now);
        if (probe == null) {
            return Result.FIT;
        }
        owner.probing();
        pool.places().probe(s);
        boolean[] answered = {false};
        s.handle().probe(probe, ok -> {
            if (answered[0]) {
                return;
            }
            answered[0] = true;
            probeDone(s, Boolean.TRUE.equals(ok), owner, resumeAt);
        });
        return Result.PENDING;
    }

    private static Probe probeFor(PooledServer s, PoolSettings settings, long now) {
        if (s.handle().inTransaction()) {
            return Probe.ROLLBACK;
        }
        if (settings.serverCheckEnabled()) {
            long delay = settings.serverCheckDelay();
            // server_check_delay = 0 means "always check", as in PgBouncer.
            if (delay <= 0 || s.idleFor(now) > delay) {
                return Probe.CHECK;
            }
        }
        return null;
    }

    private void probeDone(PooledServer s, boolean ok, Checkout owner, Checkout.Phase resumeAt) {
        pool.places().probeEnded(s);
        boolean ownerWaits = owner.phase() == Checkout.Phase.PROBING;
        if (s.state() == ServerState.CLOSED) {
            if (ownerWaits) {
                owner.resume(resumeAt);
            }
            return;
        }
        String stale = ok ? pool.staleReason(s, pool.now()) : "server check failed";
        if (stale == null && s.handle().inTransaction()) {
            stale = "server still in transaction after rollback";
        }
        if (stale != null) {
            pool.closeServer(s, stale);
            if (ownerWaits) {
                owner.resume(resumeAt);
            }
            return;
        }
        s.markReturned(pool.now());
        if (ownerWaits) {
            owner.grant(s);
        } else {
            pool.offer(s);
            pool.events().serverReleased(pool.key(), s.handle().id());
        }
    }
}
