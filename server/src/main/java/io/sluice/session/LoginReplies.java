package io.sluice.session;

import io.sluice.auth.AuthFailure;
import io.sluice.auth.ClientAuthExchange;
import io.sluice.log.Level;
import io.sluice.proto.PgError;
import io.sluice.proto.SqlState;
import io.sluice.proto.codec.Encoders;
import io.sluice.proto.codec.ParameterStatuses;
import io.sluice.proto.codec.StartupDecoder;

import java.util.List;
import java.util.Map;

/**
 * What a client's login sends it: the answers to its encryption and protocol asks, each step of
 * the password exchange, the console's greeting parameters, and the refusals that end a login,
 * in PgBouncer's words.
 */
final class LoginReplies {
    /** What the console greets with (PgBouncer's fake server parameters). */
    static final ParameterStatuses CONSOLE_WELCOME = ParameterStatuses.of(Map.of(
            "server_version", "1.25.2/bouncer",
            "client_encoding", "UTF8",
            "server_encoding", "UTF8",
            "DateStyle", "ISO",
            "TimeZone", "GMT",
            "standard_conforming_strings", "on",
            "is_superuser", "on"));

    private final ClientSession session;
    /**
     * An accepted SCRAM login's AuthenticationSASLFinal, held for the greeting's buffer: written
     * as a buffer of its own, it made the greeting's send a writev, which cost the loop about
     * twice a send's kernel time (SCRAM login profile).
     */
    private byte[] saslFinal;

    LoginReplies(ClientSession session) {
        this.session = session;
    }

    /**
     * A GSSENCRequest: 'N', no GSSAPI encryption here, and the client may go on in the clear;
     * bytes that came with the request end the connection instead, as after an SSLRequest.
     */
    void gssEncRequested() {
        var ch = session.channel();
        if (!ClientTlsState.refusedUnencryptedData(session, ch.pipeline().get(StartupDecoder.class),
                "GSSAPI encryption request")) {
            ch.writeAndFlush(Encoders.refuseEncryption());
        }
    }

    /** NegotiateProtocolVersion: protocol 3.0, none of the client's {@code _pq_} options. */
    void negotiateProtocol(List<String> protocolOptions) {
        var ch = session.channel();
        ch.write(Encoders.negotiateProtocolVersion(ch.alloc(), protocolOptions));
    }

    /** Ends the login with a FATAL protocol violation: the client reads {@code words}, and so does the log. */
    void refuse(String words) {
        refuse(words, words);
    }

    /** As {@link #refuse(String)}, with a log reason of its own. */
    void refuse(String words, String logReason) {
        session.fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION, words), logReason);
    }

    /** Ends the login with {@code error}; the log gives its message as the reason. */
    void refuse(PgError error) {
        session.fail(error, error.message());
    }

    /** Carries one step of the password exchange to the client; what follows a step is the login's. */
    void send(ClientAuthExchange.Step s) {
        var ch = session.channel();
        if (s instanceof ClientAuthExchange.Challenge c) {
            ch.writeAndFlush(Encoders.authentication(ch.alloc(), c.code(), c.data()));
        } else if (s instanceof ClientAuthExchange.Accepted a) {
            saslFinal = a.saslFinal();
        } else if (s instanceof ClientAuthExchange.Failed f) {
            // the client reads PgBouncer's words, which scripts match on; the SQLSTATE stays
            // PostgreSQL's (28P01 for a wrong password, which drivers key "bad credentials" on).
            // Channel binding, which PgBouncer lacks, is refused in PostgreSQL's words.
            var x = f.failure();
            if (!x.postgresWords() && x.detail() != null && AuthFailure.PGBOUNCER_SASL_REASON.equals(f.logReason())) {
                // PgBouncer logs why a SCRAM exchange failed (MD5 secret, nonce, proof) as an ERROR first
                ClientLog.line(session, Level.ERROR, x.detail());
            }
            session.fail(x.postgresWords() ? new PgError("FATAL", x.sqlState(), x.message(), x.detail())
                    : PgError.fatal(x.sqlState(), f.logReason()), f.logReason());
        }
    }

    /** The held AuthenticationSASLFinal data for the greeting, or null; once. */
    byte[] takeSaslFinal() {
        byte[] data = saslFinal;
        saslFinal = null;
        return data;
    }

    /**
     * The login ends before its greeting: what it held goes out first, queued ahead of the
     * ending's error (or of the close), as the client would have read it.
     */
    void writeHeld() {
        byte[] data = takeSaslFinal();
        if (data != null) {
            var ch = session.channel();
            ch.write(Encoders.authentication(ch.alloc(), 12, data));
        }
    }
}
