package io.sluice.pool;

import java.util.ArrayList;
import java.util.List;

/**
 * A plain cap shared by all pools of one database (max_db_connections) or one user
 * (max_user_connections): counts server connections that exist or are being opened. A pool
 * takes a unit before connecting and gives it back when the connection closes or the connect
 * fails; listeners (the other pools) are told so their waiters can retry. {@code max <= 0}
 * means no limit. Engine thread only.
 */
public final class ConnectionLimit {
    private final String name;
    private int max;
    private int used;
    private final List<Runnable> releaseListeners = new ArrayList<>();

    public ConnectionLimit(String name, int max) {
        this.name = name;
        this.max = max;
    }

    public static ConnectionLimit unlimited(String name) {
        return new ConnectionLimit(name, 0);
    }

    public String name() {
        return name;
    }

    public int max() {
        return max;
    }

    /** Reload: a lower max takes effect as connections close, never by closing any. */
    public void setMax(int max) {
        boolean grew = max <= 0 ? this.max > 0 : (this.max > 0 && max > this.max);
        this.max = max;
        if (grew) {
            notifyListeners();
        }
    }

    public int used() {
        return used;
    }

    public boolean tryAcquire() {
        if (max > 0 && used >= max) {
            return false;
        }
        used++;
        return true;
    }

    public void release() {
        if (used <= 0) {
            throw new IllegalStateException("connection limit " + name + " released more than acquired");
        }
        used--;
        notifyListeners();
    }

    /** Gives back a unit taken a moment ago without telling listeners (nothing changed for them). */
    public void releaseQuietly() {
        if (used <= 0) {
            throw new IllegalStateException("connection limit " + name + " released more than acquired");
        }
        used--;
    }

    /** {@code listener} runs (on the engine thread) whenever a unit is released. */
    public void addReleaseListener(Runnable listener) {
        releaseListeners.add(listener);
    }

    private void notifyListeners() {
        for (Runnable r : List.copyOf(releaseListeners)) {
            r.run();
        }
    }
}
