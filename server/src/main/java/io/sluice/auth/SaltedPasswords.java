package io.sluice.auth;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * SaltedPassword (4096 rounds of HMAC by default) for the logins Sluice makes to PostgreSQL. A
 * role's stored verifier keeps its salt and iteration count, so every server connection of a
 * pool would repeat the same derivation, about 2 ms of the event loop each; remembered here
 * instead. Bounded and process-wide; what it holds is derived from the plain passwords Sluice
 * logs in to PostgreSQL with, which the process holds anyway.
 */
final class SaltedPasswords {
    static final int MAX_ENTRIES = 256;

    private record Key(String password, String salt, int iterations) {
    }

    private static final Map<Key, byte[]> MEMO = Collections.synchronizedMap(
            new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<Key, byte[]> eldest) {
                    return size() > MAX_ENTRIES;
                }
            });

    private SaltedPasswords() {
    }

    /** As {@link ScramCrypto#saltedPassword}; a copy, so callers may do as they like with it. */
    static byte[] of(String password, byte[] salt, int iterations) {
        Key key = new Key(password, ScramCrypto.b64(salt), iterations);
        byte[] salted = MEMO.get(key);
        if (salted == null) {
            // computed outside the lock: two threads may both derive it, with the same result
            salted = ScramCrypto.saltedPassword(password, salt, iterations);
            MEMO.put(key, salted);
        }
        return salted.clone();
    }

    static int size() {
        return MEMO.size();
    }
}
