package io.sluice.auth;

import io.sluice.config.userlist.Secret;

import java.util.Objects;

/**
 * Where a login found the user: in auth_file or through auth_query ({@link Known}), nowhere
 * ({@link Unknown}: the login goes on against a mock and fails like a wrong password), or a
 * lookup that ends the login at once ({@link Refused}, e.g. PgBouncer's "no such user" after
 * an empty auth_query answer).
 */
public sealed interface UserLookup {
    /**
     * @param secret the stored secret, classified and parsed once where it was read; empty text
     *               when the user exists but no password is accepted
     */
    record Known(Secret secret) implements UserLookup {
        public Known {
            Objects.requireNonNull(secret, "secret");
        }
    }

    record Unknown() implements UserLookup {
    }

    /** @param sqlState and {@code message} go to the client, which is then closed */
    record Refused(String sqlState, String message) implements UserLookup {
    }
}
