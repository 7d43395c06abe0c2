package io.sluice.session;

import java.security.SecureRandom;
import java.util.HashMap;
import java.util.Map;

/**
 * The BackendKeyData each client is given, and the lookup a CancelRequest goes through.
 *
 * <p>Both halves come from the OS random source, as PgBouncer's 8 random bytes do: a key
 * carries no sequence and no generator state a client could recover from its own keys and
 * extrapolate to another client's. The pid half keeps the sign bit clear (PostgreSQL's pids
 * are positive and some clients choke on negative ones, which is why PgBouncer clears it too),
 * is never 0, and is unique among live keys so a lookup finds at most one owner.
 *
 * <p>A CancelRequest must name both halves; a wrong guess costs one hash lookup and is answered
 * exactly like a right one (the caller closes the connection either way), so requests reveal
 * nothing. Confined to the event loop like {@link ClientRegistry}.
 *
 * @param <T> the owner a key is issued to
 */
final class CancelKeys<T> {
    /** One generator for all keys; SecureRandom is thread-safe and seeds itself from the OS. */
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A key as the client sees it in BackendKeyData. */
    record Key(int pid, int secret) {
    }

    private record Issued<T>(T owner, int secret) {
    }

    private final Map<Integer, Issued<T>> byPid = new HashMap<>();

    /** A fresh key for {@code owner}, live until {@link #release}. */
    Key issue(T owner) {
        int pid;
        int secret;
        do {
            long bits = RANDOM.nextLong();
            pid = (int) (bits >>> 32) & 0x7fffffff;
            secret = (int) bits;
        } while (pid == 0 || byPid.containsKey(pid));
        byPid.put(pid, new Issued<>(owner, secret));
        return new Key(pid, secret);
    }

    /** The owner of the key {@code (pid, secret)}, or null unless both halves match a live key. */
    T match(int pid, int secret) {
        Issued<T> i = byPid.get(pid);
        return i != null && i.secret() == secret ? i.owner() : null;
    }

    /** The secret issued with {@code pid} to {@code owner}, for the BackendKeyData it is sent. */
    int secretOf(int pid, T owner) {
        Issued<T> i = byPid.get(pid);
        if (i == null || i.owner() != owner) {
            throw new IllegalStateException("no live cancel key " + pid + " for this owner");
        }
        return i.secret();
    }

    /** Ends {@code owner}'s key; a later request naming it matches nothing. */
    void release(int pid, T owner) {
        Issued<T> i = byPid.get(pid);
        if (i != null && i.owner() == owner) {
            byPid.remove(pid);
        }
    }

    int live() {
        return byPid.size();
    }
}
