package io.sluice.pool.pressure;

import io.sluice.pool.Lease;
import io.sluice.pool.PooledServer;
import io.sluice.pool.ServerHandle;

/** A {@link Lease} on one pooled server; ends exactly once. Engine thread only. */
final class PoolLease implements Lease {
    private final Pool pool;
    private final PooledServer server;
    private boolean ended;

    PoolLease(Pool pool, PooledServer server) {
        this.pool = pool;
        this.server = server;
    }

    @Override
    public ServerHandle server() {
        return server.handle();
    }

    @Override
    public void release() {
        end();
        pool.release(server);
        pool.events().serverReleased(pool.key(), server.handle().id());
    }

    @Override
    public void discard(String reason) {
        end();
        pool.discard(server, reason);
    }

    @Override
    public boolean closeNeeded() {
        return server.epoch() < pool.epoch() || server.handle().retired();
    }

    @Override
    public void transactionDone(long nanos) {
        pool.recordTransaction(nanos);
    }

    private void end() {
        if (ended) {
            throw new IllegalStateException("lease of server " + server.handle().id() + " already ended");
        }
        ended = true;
    }
}
