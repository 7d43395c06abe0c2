package io.sluice.runtime;

import io.sluice.pool.evict.PoolRegistry;
import io.sluice.pool.pressure.Pool;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * PAUSE / RESUME / DISABLE / ENABLE with PgBouncer's meaning: a paused database hands out no
 * server connections (new transactions are held, running ones finish), and PAUSE completes once
 * every server of it is back and closed ("pause mode"). A disabled database refuses new clients.
 * Confined to the server's event loop.
 */
final class PauseControl {
    private static final long POLL_MILLIS = 20;

    private final SluiceServer server;
    private boolean pausedAll;
    private final Set<String> pausedDbs = new HashSet<>();
    private final Set<String> disabledDbs = new HashSet<>();
    private final List<Held> held = new ArrayList<>();
    /** Servers alive when RECONNECT/KILL/PAUSE closed their pool's generation: PgBouncer's close_needed. */
    private final Map<Long, String> closeNeeded = new HashMap<>();

    private record Held(String database, Runnable checkout) {
    }

    PauseControl(SluiceServer server) {
        this.server = server;
    }

    boolean pausedAll() {
        return pausedAll;
    }

    boolean paused(String db) {
        return pausedAll || pausedDbs.contains(db);
    }

    boolean disabled(String db) {
        return disabledDbs.contains(db);
    }

    /** Runs {@code checkout} now, or when the database is resumed. */
    void checkout(String db, Runnable checkout) {
        if (paused(db)) {
            held.add(new Held(db, checkout));
        } else {
            checkout.run();
        }
    }

    CompletionStage<Void> pause(String db) {
        if (db == null) {
            pausedAll = true;
        } else {
            pausedDbs.add(db);
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        awaitReleased(db, done);
        return done;
    }

    private void awaitReleased(String db, CompletableFuture<Void> done) {
        boolean stillPaused = db == null ? pausedAll : paused(db);
        if (!stillPaused) {
            done.complete(null); // resumed before all servers came back
            return;
        }
        List<Pool> pools = pools(db);
        if (pools.stream().allMatch(PauseControl::quiet)) {
            reconnect(db);
            done.complete(null);
            return;
        }
        server.loop().schedule(() -> awaitReleased(db, done), POLL_MILLIS, TimeUnit.MILLISECONDS);
    }

    /**
     * Nothing of the pool is in use or on its way: no leased or probing server, no connect in
     * flight and no checkout queued in the engine from before the pause (it would be served,
     * or open a server, after PAUSE had answered).
     */
    private static boolean quiet(Pool p) {
        var s = p.snapshot();
        return s.svActive() == 0 && s.svTested() == 0 && s.svLogin() == 0 && s.clWaiting() == 0;
    }

    private List<Pool> pools(String db) {
        PoolRegistry registry = server.pools();
        return registry.pools().stream().filter(p -> db == null || p.key().database().equals(db)).toList();
    }

    void resume(String db) {
        if (db == null) {
            pausedAll = false;
            pausedDbs.clear();
        } else {
            pausedDbs.remove(db);
        }
        List<Held> ready = held.stream().filter(h -> !paused(h.database())).toList();
        held.removeAll(ready);
        ready.forEach(h -> h.checkout().run());
    }

    /** RECONNECT [db]: the pools' current servers become close_needed and close when free. */
    void reconnect(String db) {
        for (Pool p : pools(db)) {
            p.snapshot().servers().forEach(s -> closeNeeded.put(s.id(), p.key().database()));
            p.reconnect();
        }
    }

    boolean closeNeeded(long serverId) {
        return closeNeeded.containsKey(serverId) && server.servers().containsKey(serverId);
    }

    /** WAIT_CLOSE [db]: completes once no close_needed server of the database(s) is alive. */
    CompletionStage<Void> waitClose(String db) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        awaitClosed(db, done);
        return done;
    }

    private void awaitClosed(String db, CompletableFuture<Void> done) {
        closeNeeded.keySet().removeIf(id -> !server.servers().containsKey(id));
        if (closeNeeded.values().stream().noneMatch(d -> db == null || d.equals(db))) {
            done.complete(null);
            return;
        }
        server.loop().schedule(() -> awaitClosed(db, done), POLL_MILLIS, TimeUnit.MILLISECONDS);
    }

    /**
     * KILL [db]: the database(s) become paused (new transactions wait for RESUME, as PgBouncer's
     * killed databases do) and every client and server connection of them is dropped now.
     */
    void kill(String db) {
        if (db == null) {
            pausedAll = true;
        } else {
            pausedDbs.add(db);
        }
        for (io.sluice.session.ClientSession c : List.copyOf(server.clients().all())) {
            if (!c.isConsole() && c.database() != null && (db == null || db.equals(c.database()))) {
                c.kill("database removed", io.sluice.proto.PgError.fatal("08P01", "database removed"));
            }
        }
        reconnect(db);
        for (var conn : List.copyOf(server.servers().values())) {
            if (closeNeeded(conn.id())) {
                conn.channel().close();
            }
        }
    }

    void disable(String db) {
        disabledDbs.add(db);
    }

    void enable(String db) {
        disabledDbs.remove(db);
    }
}
