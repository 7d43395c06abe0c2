package io.sluice.backend;

import io.sluice.auth.Md5Auth;
import io.sluice.auth.NonceSource;
import io.sluice.auth.ScramClientExchange;
import io.sluice.config.userlist.Secret;
import io.sluice.proto.BackendMessage;
import io.sluice.proto.SqlState;
import io.sluice.proto.codec.Encoders;

import java.nio.charset.StandardCharsets;
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
            if (e.error()) {
                rejected(e.sqlState(), e.message());
                conn.close("login failed: " + e.message());
            }
            return;
        }
        if (!(m instanceof BackendMessage.Authentication a)) {
            return;
        }
        var ch = conn.channel();
        String pw = credentials.password();
        switch (a.code()) {
            case BackendMessage.Authentication.OK -> { }
            case BackendMessage.Authentication.CLEARTEXT -> {
                if (pw == null || credentials.isMd5Secret()) {
                    refuse(conn, "cannot do cleartext login to server: no plain password for user " + credentials.user());
                    return;
                }
                ch.writeAndFlush(Encoders.password(ch.alloc(), pw));
            }
            case BackendMessage.Authentication.MD5 -> {
                if (pw == null) {
                    refuse(conn, "cannot do md5 login to server: no password for user " + credentials.user());
                    return;
                }
                ch.writeAndFlush(Encoders.password(ch.alloc(),
                        Md5Auth.clientResponse(pw, credentials.user(), a.data())));
            }
            case BackendMessage.Authentication.SASL -> {
                String mechs = new String(a.data(), StandardCharsets.UTF_8);
                if (!mechs.contains("SCRAM-SHA-256")) {
                    refuse(conn, "server offers no supported SASL mechanism");
                    return;
                }
                if (credentials.hasScramKeys()) {
                    scram = ScramClientExchange.withKeys(credentials.scramClientKey(), credentials.scramServerKey(),
                            NonceSource.secureRandom());
                } else if (pw != null && Secret.kindOf(pw) == Secret.Kind.PLAIN) {
                    scram = ScramClientExchange.withPassword(pw, NonceSource.secureRandom());
                } else {
                    refuse(conn, "cannot do SCRAM login to server: no password or client keys for user "
                            + credentials.user());
                    return;
                }
                ch.writeAndFlush(Encoders.saslInitialResponse(ch.alloc(), "SCRAM-SHA-256", scram.clientFirst()));
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
                    refuse(conn, "SCRAM server signature mismatch");
                }
            }
            default -> refuse(conn, "unsupported authentication method " + a.code() + " requested by server");
        }
    }

    private void refuse(ServerConnection conn, String message) {
        rejected(SqlState.INVALID_PASSWORD, message);
        conn.close(message);
    }

    /** ReadyForQuery seen: run connect_query if any, then report success. */
    void succeeded(ServerConnection conn) {
        String q = conn.target().connectQuery();
        if (q == null || q.isEmpty()) {
            report(conn);
            return;
        }
        conn.runInternal(q, ok -> {
            if (!ok) {
                io.sluice.log.Log.global().warning("connect_query failed on server " + conn.id() + " (ignored)");
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

    private void rejected(String sqlState, String message) {
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
