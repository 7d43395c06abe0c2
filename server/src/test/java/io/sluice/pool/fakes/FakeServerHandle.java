package io.sluice.pool.fakes;

import io.sluice.pool.ServerHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** A server connection that lives in memory; probes answer at once unless the test holds them. */
public final class FakeServerHandle implements ServerHandle {
    private final long id;
    private final FakeConnector owner;
    private boolean open = true;
    private boolean inTransaction;
    private boolean probeResult = true;
    private boolean holdProbes;
    private String closeReason;
    public final List<Probe> probes = new ArrayList<>();
    private final List<Consumer<Boolean>> heldProbes = new ArrayList<>();

    FakeServerHandle(long id, FakeConnector owner) {
        this.id = id;
        this.owner = owner;
    }

    @Override
    public long id() {
        return id;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public boolean inTransaction() {
        return inTransaction;
    }

    public void inTransaction(boolean v) {
        inTransaction = v;
    }

    public void probeResult(boolean ok) {
        probeResult = ok;
    }

    public void holdProbes(boolean hold) {
        holdProbes = hold;
    }

    /** Answers the probes held so far with {@code ok}. */
    public void answerProbes(boolean ok) {
        List<Consumer<Boolean>> l = new ArrayList<>(heldProbes);
        heldProbes.clear();
        l.forEach(c -> c.accept(ok));
    }

    /** Simulates the backend dying under the pool. */
    public void die() {
        open = false;
    }

    @Override
    public void probe(Probe kind, Consumer<Boolean> done) {
        probes.add(kind);
        if (holdProbes) {
            heldProbes.add(done);
            return;
        }
        if (kind == Probe.ROLLBACK && probeResult) {
            inTransaction = false;
        }
        done.accept(probeResult);
    }

    @Override
    public void close(String reason) {
        if (closeReason == null) {
            closeReason = reason;
            owner.closed(this);
        }
        open = false;
    }

    public String closeReason() {
        return closeReason;
    }

    public boolean isClosed() {
        return closeReason != null;
    }
}
