package io.sluice.config.userlist;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A parsed auth file: user name to secret, in file order (a later line for the same user
 * replaces the earlier secret, as in PgBouncer). Immutable.
 *
 * @param source file name as configured
 * @param users  user name to secret
 */
public record AuthFile(String source, Map<String, Secret> users) {

    public AuthFile {
        users = Collections.unmodifiableMap(new LinkedHashMap<>(users));
    }

    /** The secret of {@code user}, if listed. */
    public Optional<Secret> secret(String user) {
        return Optional.ofNullable(users.get(user));
    }
}
