package io.sluice.session;

import java.nio.ByteBuffer;
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
 * is never 0, and the whole key is unique among live keys so a lookup finds at most one owner.
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
    /** Keys drawn per call to the generator: one call per login cost more than the rest of the key's work. */
    private static final int BATCH = 64;
    /**
     * With peering, the low two bits of the secret are the hops a forwarded cancel has left
     * (PgBouncer's CANCELLATION_TTL_MASK): issued as 3, one less at each forward.
     */
    static final int TTL_MASK = 0x03;

    /** A key as the client sees it in BackendKeyData. */
    record Key(int pid, int secret) {
        long whole() {
            return ((long) pid << 32) | (secret & 0xffffffffL);
        }
    }

    private final Map<Long, T> byKey = new HashMap<>();
    /** Random bits drawn ahead, used once each, front to back; confined like the map. */
    private final ByteBuffer drawn = ByteBuffer.allocate(BATCH * Long.BYTES).position(BATCH * Long.BYTES);

    /**
     * A fresh key for {@code owner}, live until {@link #release}. With {@code peerId} above 0
     * (peering on) the pid's 2nd and 3rd bytes carry the peer id, low byte first, and the secret's
     * TTL bits are set, exactly as PgBouncer 1.21+ lays them out, so a PgBouncer or Sluice peer
     * that receives the cancel knows where to forward it.
     */
    Key issue(T owner, int peerId) {
        Key k;
        do {
            long bits = nextRandom();
            int pid = (int) (bits >>> 32) & 0x7fffffff;
            int secret = (int) bits;
            if (peerId > 0) {
                pid = (pid & 0x7f0000ff) | ((peerId & 0xff) << 16) | (((peerId >> 8) & 0xff) << 8);
                secret |= TTL_MASK;
            }
            k = new Key(pid, secret);
        } while (k.pid() == 0 || byKey.containsKey(k.whole()));
        byKey.put(k.whole(), owner);
        return k;
    }

    private long nextRandom() {
        if (!drawn.hasRemaining()) {
            RANDOM.nextBytes(drawn.array());
            drawn.clear();
        }
        return drawn.getLong();
    }

    /** The peer id a key names (0 when it was issued without peering, or by chance). */
    static int peerOf(int pid) {
        return ((pid >>> 16) & 0xff) | (((pid >>> 8) & 0xff) << 8);
    }

    /** The owner of the key {@code (pid, secret)}, or null unless both halves match a live key. */
    T match(int pid, int secret) {
        return byKey.get(new Key(pid, secret).whole());
    }

    /** Ends {@code owner}'s key; a later request naming it matches nothing. */
    void release(Key key, T owner) {
        byKey.remove(key.whole(), owner);
    }

    int live() {
        return byKey.size();
    }
}
