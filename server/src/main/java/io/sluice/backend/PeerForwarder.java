package io.sluice.backend;

import io.netty.channel.EventLoop;
import io.sluice.config.ConfigSnapshot;
import io.sluice.config.PeerEntry;
import io.sluice.net.Transport;

import java.net.SocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Forwards cancel requests to peers, at most a peer's {@code pool_size} at once (PgBouncer's peer
 * pool): the rest wait in arrival order. Each forward is a fresh connection to the peer's unix
 * socket ({@code host=/dir}) or TCP address carrying the key as the client sent it, the TTL bits
 * already lowered by the caller. A peer pool exists from its first forward on, as in PgBouncer,
 * which is what SHOW PEER_POOLS lists. Event loop only, apart from {@link #peerId()}.
 */
public final class PeerForwarder implements PeerCancels {
    /** How long one forward may take to connect and be answered (PostgreSQL-style cancels are instant). */
    private static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(15);

    private final EventLoop loop;
    private final Transport transport;
    private final Supplier<ConfigSnapshot> config;
    private final Map<Integer, PeerPool> pools = new TreeMap<>();
    /**
     * peer_id as of a configuration: every login reads it for its cancel key, and reading it by
     * name from the settings showed in a login's profile. Replaced whole, so any thread reads a pair.
     */
    private volatile PeerIdOf peerIdOf;

    private record PeerIdOf(ConfigSnapshot config, int peerId) {
    }

    /** One peer's forwards: waiting for a slot, connecting (sv_login), sent and awaiting the close. */
    private static final class PeerPool {
        final ArrayDeque<Runnable> waiting = new ArrayDeque<>();
        int login;
        int active;
    }

    /** A peer pool's counters, for SHOW PEER_POOLS. */
    public record Counts(int peerId, int activeCancelReq, int waitingCancelReq, int activeCancel, int login) {
    }

    public PeerForwarder(EventLoop loop, Transport transport, Supplier<ConfigSnapshot> config) {
        this.loop = loop;
        this.transport = transport;
        this.config = config;
    }

    @Override
    public int peerId() {
        ConfigSnapshot c = config.get();
        PeerIdOf known = peerIdOf;
        if (known == null || known.config() != c) {
            known = new PeerIdOf(c, c.settings().intValue("peer_id"));
            peerIdOf = known;
        }
        return known.peerId();
    }

    @Override
    public boolean forward(int peerId, int pid, int secret, Runnable done) {
        ConfigSnapshot c = config.get();
        PeerEntry peer = c.peers().get(peerId);
        if (peer == null) {
            return false;
        }
        int size = Math.max(1, peer.poolSize().orElse(c.defaultPoolSize()));
        PeerPool pool = pools.computeIfAbsent(peerId, k -> new PeerPool());
        boolean unix = peer.host().startsWith("/") || peer.host().startsWith("@");
        String where = peer.host().startsWith("@") ? "\0" + peer.host().substring(1) : peer.host();
        SocketAddress address = CancelConnection.address(unix, where, peer.port());
        pool.waiting.add(() -> {
            pool.login++;
            boolean[] up = {false};
            CancelConnection.send(loop, transport, address, TIMEOUT_NANOS, pid, secret, ch -> {
                up[0] = true;
                pool.login--;
                pool.active++;
            }, () -> {
                if (up[0]) {
                    pool.active--;
                } else {
                    pool.login--; // the connect failed
                }
                done.run();
                pump(pool, size);
            });
        });
        pump(pool, size);
        return true;
    }

    private static void pump(PeerPool pool, int size) {
        while (pool.login + pool.active < size && !pool.waiting.isEmpty()) {
            pool.waiting.poll().run();
        }
    }

    /** SHOW PEER_POOLS, by peer id; a request counts as waiting until its connection is up, as in PgBouncer. */
    public List<Counts> counts() {
        List<Counts> rows = new ArrayList<>();
        pools.forEach((id, p) -> rows.add(new Counts(id, p.active, p.waiting.size() + p.login, p.active, p.login)));
        return rows;
    }
}
