package io.sluice.pool;

import io.sluice.util.LinkedMembers;

/**
 * Engine-side record of one logged-in server connection: its handle, when it was created and
 * last returned, the reconnect epoch it was born in and its lifetime jitter. Engine thread only.
 */
public final class PooledServer {
    private final ServerHandle handle;
    private final long createdAt;
    private final long epoch;
    private final double lifetimeFactor;
    private long lastReturnedAt;
    private ServerState state;
    private boolean replacementRequested;
    private Permit permit;
    /** Its place among its pool's leased or tested servers. */
    private final LinkedMembers.Link<PooledServer> place = new LinkedMembers.Link<>(this);

    public PooledServer(ServerHandle handle, long createdAt, long epoch, double lifetimeFactor) {
        this.handle = handle;
        this.createdAt = createdAt;
        this.epoch = epoch;
        this.lifetimeFactor = lifetimeFactor;
        this.lastReturnedAt = createdAt;
        this.state = ServerState.NEW;
    }

    public ServerHandle handle() {
        return handle;
    }

    public long createdAt() {
        return createdAt;
    }

    public long epoch() {
        return epoch;
    }

    public double lifetimeFactor() {
        return lifetimeFactor;
    }

    public long lastReturnedAt() {
        return lastReturnedAt;
    }

    public void markReturned(long now) {
        lastReturnedAt = now;
    }

    public long age(long now) {
        return now - createdAt;
    }

    public long idleFor(long now) {
        return now - lastReturnedAt;
    }

    public ServerState state() {
        return state;
    }

    public void state(ServerState next) {
        state = next;
    }

    public boolean replacementRequested() {
        return replacementRequested;
    }

    public void replacementRequested(boolean requested) {
        replacementRequested = requested;
    }

    public LinkedMembers.Link<PooledServer> place() {
        return place;
    }

    /** The coordinator permit this connection holds, or null outside coordinator mode. */
    public Permit permit() {
        return permit;
    }

    public void permit(Permit p) {
        permit = p;
    }

    @Override
    public String toString() {
        return "server#" + handle.id() + "(" + state.pgName() + ")";
    }
}
