package io.sluice.backend;

import io.sluice.auth.Md5Auth;
import io.sluice.auth.NonceSource;
import io.sluice.auth.ScramClientExchange;
import io.sluice.auth.ScramServerExchange;
import io.sluice.config.userlist.Secret;
import io.sluice.log.Level;
import io.sluice.log.Log;
import io.sluice.proto.BackendMessage;
import io.sluice.proto.SqlState;
import io.sluice.proto.codec.Encoders;
import io.sluice.tls.TlsInfo;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;

/**
 * Logs a fresh server connection in: answers the server's authentication requests with the
 * pool's credentials (cleartext, md5, SCRAM from a password, or SCRAM pass-through keys), then
 * runs {@code connect_query}. Reports exactly once through the callbacks.
 */
public final class ServerLogin {
    private final BackendCredentials credentials;
    private final Consumer<ServerConnection> onSuccess;
    private final Failure onFailure;
    private final Failure onRejected;
    private ScramClientExchange scram;
    private boolean reported;
    private Runnable onDone = () -> { };

    @FunctionalInterface
    public interface Failure {
        void failed(String sqlState, String message);
    }

    /**
     * @param onFailure  the connection failed or closed before login ended (retried later)
     * @param onRejected the server refused the login with an error, or the credentials at hand
     *                   cannot answer its authentication request
     */
    public ServerLogin(BackendCredentials credentials, Consumer<ServerConnection> onSuccess, Failure onFailure,
                       Failure onRejected) {
        this.credentials = credentials;
        this.onSuccess = onSuccess;
        this.onFailure = onFailure;
        this.onRejected = onRejected;
    }

    /** Runs once when the login ends either way (the connector cancels its timeout here). */
    public void onDone(Runnable r) {
        this.onDone = r;
    }

    void onMessage(ServerConnection conn, BackendMessage m) {
        if (m instanceof BackendMessage.ErrorOrNotice e) {
            if (!e.error()) {
                return;
            }
            String level = e.severity();
            if (conn.target().startupParams().containsKey("replication")) {
                // a replication login fails for reasons of its own (REPLICATION role, hba line):
                // PgBouncer logs the server's error and tells the one client "login failed"
                Log.global().error("S: login failed: " + level + ": " + e.message());
                rejected(SqlState.PROTOCOL_VIOLATION, "login failed");
                conn.close("login failed");
                return;
            }
            // PgBouncer's words: a warning naming the level, the server closed with the bare
            // message, and the clients waiting for this login told the server's own error
            Log.global().warning("server login failed: " + level + " " + e.message());
            rejected(e.sqlState(), e.message());
            conn.close(e.message());
            return;
        }
        if (!(m instanceof BackendMessage.Authentication a)) {
            return;
        }
        var ch = conn.channel();
        // no password known: answer with an empty one, as PgBouncer does, and let the server say no
        String pw = credentials.password() == null ? "" : credentials.password();
        Secret.Kind kind = Secret.kindOf(pw);
        switch (a.code()) {
            case BackendMessage.Authentication.OK -> { }
            case BackendMessage.Authentication.CLEARTEXT -> {
                if (kind != Secret.Kind.PLAIN) {
                    wrongPasswordType(conn, "cleartext", "wrong password type");
                    return;
                }
                ch.writeAndFlush(Encoders.password(ch.alloc(), pw));
            }
            case BackendMessage.Authentication.MD5 -> {
                if (kind != Secret.Kind.PLAIN && kind != Secret.Kind.MD5) {
                    wrongPasswordType(conn, "MD5", "wrong password type");
                    return;
                }
                ch.writeAndFlush(Encoders.password(ch.alloc(),
                        Md5Auth.clientResponse(pw, credentials.user(), a.data())));
            }
            case BackendMessage.Authentication.SASL -> {
                List<String> mechs = List.of(new String(a.data(), StandardCharsets.UTF_8).split("\0"));
                if (!mechs.contains(ScramServerExchange.MECHANISM)) {
                    refuse(conn, "none of the server's SASL authentication mechanisms are supported");
                    return;
                }
                if (credentials.hasScramKeys()) {
                    scram = ScramClientExchange.withKeys(credentials.scramClientKey(), credentials.scramServerKey(),
                            NonceSource.secureRandom());
                } else if (kind == Secret.Kind.PLAIN) {
                    scram = ScramClientExchange.withPassword(pw, NonceSource.secureRandom());
                } else {
                    wrongPasswordType(conn, "SCRAM", kind == Secret.Kind.SCRAM
                            ? "password is SCRAM secret but client authentication did not provide SCRAM keys"
                            : "wrong password type");
                    return;
                }
                // over TLS PostgreSQL offers PLUS: bind to its certificate, as libpq does by default,
                // so that a man in the middle presenting another certificate cannot relay the login
                TlsInfo tls = TlsInfo.of(ch);
                scram.bindChannel(mechs.contains(ScramServerExchange.MECHANISM_PLUS) && tls != null
                        ? tls.serverEndPointAsClient() : null);
                ch.writeAndFlush(Encoders.saslInitialResponse(ch.alloc(), scram.mechanism(), scram.clientFirst()));
            }
            case BackendMessage.Authentication.SASL_CONTINUE -> {
                try {
                    String fin = scram.clientFinal(new String(a.data(), StandardCharsets.UTF_8));
                    ch.writeAndFlush(Encoders.saslResponse(ch.alloc(), fin));
                } catch (RuntimeException e) {
                    refuse(conn, "SCRAM exchange with server failed: " + e.getMessage());
                }
            }
            case BackendMessage.Authentication.SASL_FINAL -> {
                try {
                    scram.verifyServerFinal(new String(a.data(), StandardCharsets.UTF_8));
                } catch (RuntimeException e) {
                    refuse(conn, "invalid server signature");
                }
            }
            default -> refuse(conn, "unknown/unsupported auth method: " + a.code());
        }
    }

    /**
     * The pool's secret cannot answer what the server asks for. PgBouncer logs why on the server
     * and tells the waiting clients {@code server login failed: wrong password type}.
     */
    private void wrongPasswordType(ServerConnection conn, String method, String why) {
        conn.log(Level.ERROR, "cannot do " + method + " authentication: " + why);
        rejected(SqlState.PROTOCOL_VIOLATION, "server login failed: wrong password type");
        conn.close("failed to answer authreq");
    }

    /** Any other login the pooler cannot complete: clients get {@code server login failed: <why>}. */
    private void refuse(ServerConnection conn, String why) {
        conn.log(Level.ERROR, why);
        rejected(SqlState.PROTOCOL_VIOLATION, "server login failed: " + why);
        conn.close("failed to answer authreq");
    }

    /** ReadyForQuery seen: run connect_query if any, then report success. */
    void succeeded(ServerConnection conn) {
        String q = conn.target().connectQuery();
        if (q == null || q.isEmpty()) {
            report(conn);
            return;
        }
        conn.internal().runAnswered(q, a -> {
            if (a == QueryAnswer.ERROR) {
                // PgBouncer's words; it goes on as well
                Log.global().error("S: error while executing exec_on_query: " + conn.internal().lastError());
            }
            if (conn.isOpen()) {
                report(conn);
            } else {
                failed(SqlState.CONNECTION_FAILURE, "server closed during connect_query");
            }
        });
    }

    private void report(ServerConnection conn) {
        if (!reported) {
            reported = true;
            onDone.run();
            onSuccess.accept(conn);
        }
    }

    void failed(String sqlState, String message) {
        end(onFailure, sqlState, message);
    }

    /** PostgreSQL, or the TLS negotiation before it, turned this login down: retrying will not help. */
    void rejected(String sqlState, String message) {
        end(onRejected, sqlState, message);
    }

    private void end(Failure how, String sqlState, String message) {
        if (!reported) {
            reported = true;
            onDone.run();
            how.failed(sqlState, message);
        }
    }
}
