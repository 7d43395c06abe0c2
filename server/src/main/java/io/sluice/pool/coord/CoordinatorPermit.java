package io.sluice.pool.coord;

import io.sluice.pool.Permit;

/** A main or reserve permit of one {@link Coordinator}; released exactly once. Engine thread only. */
final class CoordinatorPermit implements Permit {
    private final Coordinator owner;
    private boolean reserve;
    private boolean released;

    CoordinatorPermit(Coordinator owner, boolean reserve) {
        this.owner = owner;
        this.reserve = reserve;
    }

    @Override
    public boolean isReserve() {
        return reserve;
    }

    @Override
    public boolean tryUpgrade() {
        if (released) {
            throw new IllegalStateException("permit already released");
        }
        if (!reserve) {
            return true;
        }
        if (owner.swapReserveForMain()) {
            reserve = false;
            return true;
        }
        return false;
    }

    @Override
    public void release() {
        if (released) {
            throw new IllegalStateException("coordinator permit released twice");
        }
        released = true;
        owner.released(reserve);
    }
}
