package io.sluice.backend;

import io.sluice.config.userlist.Secret;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * SCRAM keys recovered from clients' proofs, per user, so servers can log in as that user
 * without knowing the password (pass-through; PgBouncer keeps them with the user's credentials).
 * Filled when a client's SCRAM login against an auth_file SCRAM secret succeeds, read when a pool
 * of that user connects. Event loop only.
 */
public final class ScramKeyCache {
    /** ClientKey and ServerKey of one user. */
    public record Keys(byte[] clientKey, byte[] serverKey) {
        public Keys {
            clientKey = clientKey.clone();
            serverKey = serverKey.clone();
        }

        @Override
        public byte[] clientKey() {
            return clientKey.clone();
        }

        @Override
        public byte[] serverKey() {
            return serverKey.clone();
        }
    }

    private final Map<String, Keys> byUser = new HashMap<>();

    public void remember(String user, byte[] clientKey, byte[] serverKey) {
        byUser.put(user, new Keys(clientKey, serverKey));
    }

    public Optional<Keys> keys(String user) {
        return Optional.ofNullable(byUser.get(user));
    }

    /**
     * How a server logs in as {@code user} whose secret is {@code secret} (null: none, trust):
     * a plain or md5 secret is sent as it is; a SCRAM secret needs the keys a client of that user
     * proved, and without them the login has nothing to offer.
     */
    public BackendCredentials credentials(String user, String secret) {
        if (secret == null || Secret.kindOf(secret) != Secret.Kind.SCRAM) {
            return new BackendCredentials(user, secret, null, null);
        }
        Keys k = byUser.get(user);
        return k == null ? BackendCredentials.none(user) : new BackendCredentials(user, null, k.clientKey(), k.serverKey());
    }
}
