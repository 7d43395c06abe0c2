package io.sluice.runtime;

import io.sluice.admin.DatabaseControl;
import io.sluice.pool.CheckoutFailure;
import io.sluice.pool.PoolKey;
import io.sluice.pool.Waiter;
import io.sluice.pool.evict.PoolRegistry;
import io.sluice.pool.pressure.Pool;
import io.sluice.util.Scheduler;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * PAUSE / RESUME / DISABLE / ENABLE with PgBouncer's meaning: a paused database hands out no
 * server connections (new transactions are held, running ones finish), and PAUSE completes once
 * every server of it is back and closed ("pause mode"). A disabled database refuses new clients.
 * Progress is event-driven: PAUSE completes when the engine reports the last use of the
 * database's pools ended ({@link PoolRegistry#awaitQuiet}), WAIT_CLOSE when the last
 * close_needed server's socket closed ({@link #serverGone}). SHUTDOWN WAIT_FOR_SERVERS pauses
 * for good and answers every request that would wait with "server shutting down" ({@link
 * #refuseWaiters}). Confined to the server's event loop.
 */
final class PauseControl implements DatabaseControl {
    private final SluiceServer server;
    private boolean pausedAll;
    private final Set<String> pausedDbs = new HashSet<>();
    private final Set<String> disabledDbs = new HashSet<>();
    private final List<Held> held = new ArrayList<>();
    /** Servers alive when RECONNECT/KILL/PAUSE closed their pool's generation: PgBouncer's close_needed. */
    private final Map<Long, String> closeNeeded = new HashMap<>();
    private final List<Pending> pausing = new ArrayList<>();
    private final List<Pending> waitingClose = new ArrayList<>();
    /** SHUTDOWN WAIT_FOR_SERVERS: requests that would wait are answered with this instead. */
    private CheckoutFailure refusal;

    /**
     * A request held by a pause. It is under query_wait_timeout while held, as PgBouncer's
     * waiting clients are, and the time held counts against its budget after RESUME.
     */
    private static final class Held {
        final PoolKey key;
        final Waiter waiter;
        final long since;
        Scheduler.Cancellable timeout = Scheduler.Cancellable.NONE;

        Held(PoolKey key, Waiter waiter, long since) {
            this.key = key;
            this.waiter = waiter;
            this.since = since;
        }
    }

    /** A PAUSE or WAIT_CLOSE not answered yet; {@code database} null = all. */
    private record Pending(String database, CompletableFuture<Void> done, CompletableFuture<Void> drained) {
    }

    PauseControl(SluiceServer server) {
        this.server = server;
    }

    boolean pausedAll() {
        return pausedAll;
    }

    /** New transactions of {@code db} wait: PAUSE, KILL or a PAUSE of {@code db} itself. */
    boolean paused(String db) {
        return pausedAll || pausedDbs.contains(db);
    }

    /**
     * PAUSE db / KILL marked {@code db} itself (PgBouncer's db_paused: SHOW DATABASES' paused
     * column, and what RESUME db undoes); a global PAUSE leaves it unmarked.
     */
    boolean pausedOnItsOwn(String db) {
        return pausedDbs.contains(db);
    }

    boolean disabled(String db) {
        return disabledDbs.contains(db);
    }

    /** Asks {@code key}'s pool for a server for {@code waiter} now, or when the database is resumed. */
    void checkout(PoolKey key, Waiter waiter) {
        if (refusal != null) {
            waiter.failed(refusal);
        } else if (paused(key.database())) {
            hold(key, waiter);
        } else {
            server.pools().pool(key).checkout(waiter);
        }
    }

    /** Holds the request until RESUME, or until the pool's query_wait_timeout ends it. */
    private void hold(PoolKey key, Waiter waiter) {
        Held h = new Held(key, waiter, server.clock().nanoTime());
        held.add(h);
        long budget = server.pools().find(key).map(p -> p.settings().queryWaitTimeout())
                .orElseGet(() -> server.routing().poolSettings(key).queryWaitTimeout());
        if (budget != Long.MAX_VALUE) {
            h.timeout = server.scheduler().schedule(() -> {
                if (held.remove(h) && waiter.isAlive()) {
                    waiter.failed(CheckoutFailure.waitTimeout());
                }
            }, budget);
        }
    }

    /**
     * SHUTDOWN WAIT_FOR_SERVERS, as PgBouncer 1.25 does it: every client queued for a server
     * (held by the pause or waiting in a pool) and every later request is answered with
     * {@code failure} and disconnected, while transactions that hold a server finish.
     */
    void refuseWaiters(CheckoutFailure failure) {
        refusal = failure;
        markPaused(null);
        List<Held> refused = List.copyOf(held);
        held.clear();
        refused.forEach(h -> {
            h.timeout.cancel();
            h.waiter.failed(failure);
        });
        server.pools().pools().forEach(p -> p.failWaiting(failure));
    }

    /** A database left the config: its pause, disable and close_needed marks go with it. */
    void forget(String db) {
        pausedDbs.remove(db);
        disabledDbs.remove(db);
        held.removeIf(h -> h.key.database().equals(db));
        closeNeeded.values().removeIf(db::equals);
        waitingClose.removeIf(this::answerIfClosed);
    }

    @Override
    public CompletionStage<Void> pause(String db) {
        markPaused(db);
        Pending p = new Pending(db, new CompletableFuture<>(), server.pools().awaitQuiet(db));
        pausing.add(p);
        p.drained().thenRun(() -> {
            pausing.remove(p);
            reconnect(db, "pause mode", false);
            p.done().complete(null);
        });
        return p.done();
    }

    private void markPaused(String db) {
        if (db == null) {
            pausedAll = true;
        } else {
            pausedDbs.add(db);
        }
    }

    @Override
    public void resume(String db) {
        if (db == null) {
            pausedAll = false; // as PgBouncer: databases paused one by one stay paused until RESUME db
        } else {
            pausedDbs.remove(db);
        }
        // a PAUSE resumed before all servers came back answers now, without closing them
        for (Pending p : List.copyOf(pausing)) {
            if (!(p.database() == null ? pausedAll : paused(p.database()))) {
                pausing.remove(p);
                p.drained().cancel(false);
                p.done().complete(null);
            }
        }
        List<Held> ready = held.stream().filter(h -> !paused(h.key.database())).toList();
        held.removeAll(ready);
        long now = server.clock().nanoTime();
        ready.forEach(h -> {
            h.timeout.cancel();
            server.pools().pool(h.key).checkout(h.waiter, now - h.since);
        });
    }

    private List<Pool> pools(String db) {
        PoolRegistry registry = server.pools();
        return registry.pools().stream().filter(p -> db == null || p.key().database().equals(db)).toList();
    }

    /**
     * RECONNECT [db], and a reload that changed what a database connects to: the pools' current
     * servers become close_needed and close when free, and their welcome parameters are
     * forgotten, as PgBouncer's tag_pool_dirty does, so that the next login is greeted by the
     * new target (its server_encoding, or its refusal when the database does not exist there).
     */
    @Override
    public void reconnect(String db) {
        server.forgetWelcome(db);
        reconnect(db, "database configuration changed", true);
    }

    /**
     * {@link #reconnect(String)}, each close logged with {@code reason} (PgBouncer's words); a
     * server in use then logs "close_needed" when given back if {@code closeNeededAtRelease}.
     */
    private void reconnect(String db, String reason, boolean closeNeededAtRelease) {
        for (Pool p : pools(db)) {
            // only servers whose socket is open: a closed one would never report its close
            p.snapshot().servers().stream().filter(s -> server.servers().containsKey(s.id()))
                    .forEach(s -> closeNeeded.put(s.id(), p.key().database()));
            p.reconnect(reason, closeNeededAtRelease);
        }
    }

    boolean closeNeeded(long serverId) {
        return closeNeeded.containsKey(serverId) && server.servers().containsKey(serverId);
    }

    /** WAIT_CLOSE [db]: completes once no close_needed server of the database(s) is alive. */
    @Override
    public CompletionStage<Void> waitClose(String db) {
        Pending p = new Pending(db, new CompletableFuture<>(), null);
        if (!answerIfClosed(p)) {
            waitingClose.add(p);
        }
        return p.done();
    }

    /** A server's socket closed: it is no longer close_needed, which may answer a WAIT_CLOSE. */
    void serverGone(long serverId) {
        if (closeNeeded.remove(serverId) != null) {
            waitingClose.removeIf(this::answerIfClosed);
        }
    }

    private boolean answerIfClosed(Pending p) {
        if (closeNeeded.values().stream().anyMatch(d -> p.database() == null || d.equals(p.database()))) {
            return false;
        }
        p.done().complete(null);
        return true;
    }

    /**
     * KILL [db]: the database(s) become paused (new transactions wait for RESUME, as PgBouncer's
     * killed databases do) and every client and server connection of them is dropped now.
     */
    @Override
    public void kill(String db) {
        if (db == null) {
            // PgBouncer's KILL without a database pauses each database that has a pool, one by
            // one (not the pooler: a plain RESUME does not undo it, RESUME db does)
            server.pools().pools().forEach(p -> pausedDbs.add(p.key().database()));
        } else {
            markPaused(db);
        }
        // PgBouncer frees the killed pools with their welcome message: a new login waits for RESUME
        server.forgetWelcome(db);
        for (io.sluice.session.ClientSession c : List.copyOf(server.clients().all())) {
            if (!c.isConsole() && c.database() != null && (db == null || db.equals(c.database()))) {
                c.kill("database removed", io.sluice.proto.PgError.fatal("08P01", "database removed"));
            }
        }
        reconnect(db, "database removed", true);
        for (var conn : List.copyOf(server.servers().values())) {
            if (closeNeeded(conn.id())) {
                conn.channel().close();
            }
        }
    }

    @Override
    public void disable(String db) {
        disabledDbs.add(db);
    }

    @Override
    public void enable(String db) {
        disabledDbs.remove(db);
    }
}
