package io.sluice.auth;

import io.sluice.config.hba.HbaRules;
import io.sluice.config.userlist.Secret;
import java.net.InetAddress;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What {@link ClientAuthPolicy} needs to know about one login.
 *
 * @param authType   the configured auth_type
 * @param hba        the auth_hba_file rules (with their ident maps) when auth_type is hba
 * @param unixSocket the client came over the Unix socket ({@code local} lines, peer)
 * @param tls        the client connection is encrypted ({@code hostssl} lines, cert)
 * @param address    the client's IP address; null over the Unix socket
 * @param database   the database name the client asked for
 * @param user       the user name the client logs in as
 * @param secret     the kind of the user's stored secret; empty when the user is unknown
 * @param peerUser   the Unix user name of the socket's peer (getpwuid of SO_PEERCRED), null
 *                   when it cannot be told; asked only when the method is peer
 */
public record LoginRequest(
        AuthMethod authType,
        Optional<HbaRules> hba,
        boolean unixSocket,
        boolean tls,
        InetAddress address,
        String database,
        String user,
        Optional<Secret.Kind> secret,
        Supplier<String> peerUser) {

    public LoginRequest {
        Objects.requireNonNull(authType, "authType");
        Objects.requireNonNull(hba, "hba");
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(secret, "secret");
        Objects.requireNonNull(peerUser, "peerUser");
    }
}
