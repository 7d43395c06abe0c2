package io.sluice.session;

import io.netty.channel.ChannelPipeline;
import io.sluice.auth.AuthFailure;
import io.sluice.auth.CleartextAuth;
import io.sluice.auth.Md5Auth;
import io.sluice.auth.NonceSource;
import io.sluice.auth.ScramException;
import io.sluice.auth.ScramSecret;
import io.sluice.auth.ScramServerExchange;
import io.sluice.config.userlist.Secret;
import io.sluice.pool.CheckoutFailure;
import io.sluice.proto.Frame;
import io.sluice.proto.PgError;
import io.sluice.proto.SqlState;
import io.sluice.proto.StartupPacket;
import io.sluice.proto.codec.Encoders;
import io.sluice.proto.codec.FrameDecoder;
import io.sluice.proto.codec.FrontendDecoding;
import io.sluice.proto.codec.StartupDecoder;
import io.sluice.tls.CertificateNames;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The login of one client: startup packet checks, routing, authentication per
 * {@code auth_type}, console access, and the greeting once the pool's server parameters are
 * known. Ends by calling {@link ClientSession#loggedIn} or {@link ClientSession#fail}.
 */
final class ClientLogin {
    private static final SecureRandom RANDOM = new SecureRandom();
    /** Startup parameters Sluice understands without ignore_startup_parameters. */
    private static final Set<String> KNOWN = Set.of("user", "database", "application_name", "client_encoding",
            "datestyle", "timezone", "standard_conforming_strings", "intervalstyle");
    /** What the console greets with (PgBouncer's fake server parameters). */
    private static final Map<String, String> CONSOLE_WELCOME = Map.of(
            "server_version", "1.25.2/bouncer",
            "client_encoding", "UTF8",
            "server_encoding", "UTF8",
            "DateStyle", "ISO",
            "TimeZone", "GMT",
            "standard_conforming_strings", "on",
            "is_superuser", "on");

    /** The console's built-in user (PgBouncer's fake "pgbouncer" user of its admin database). */
    private static final String CONSOLE_USER = "pgbouncer";

    private enum Step { STARTUP, PASSWORD, MD5, SASL_FIRST, SASL_FINAL, WELCOME, DONE }

    private final ClientSession session;
    private Step step = Step.STARTUP;
    private PgError refusal;
    private RouteLookup lookup;
    private ClientParams params;
    private String user;
    private byte[] salt;
    private ScramServerExchange scram;
    private boolean consoleAdmin;

    ClientLogin(ClientSession session) {
        this.session = session;
    }

    /** The client is over a limit; tell it once it has sent its startup packet. */
    void refuseWhenStarted(PgError error) {
        refusal = error;
    }

    void dispose() {
        step = Step.DONE;
    }

    // ---- startup ----------------------------------------------------------------------------

    void onStartupPacket(StartupPacket p) {
        if (step != Step.STARTUP) {
            session.fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION, "bad packet header"), "bad packet header");
            return;
        }
        var ch = session.channel();
        if (p instanceof StartupPacket.SslRequest) {
            session.tlsState().sslRequested();
        } else if (p instanceof StartupPacket.GssEncRequest) {
            ch.writeAndFlush(Encoders.refuseEncryption(ch.alloc()));
        } else if (p instanceof StartupPacket.CancelRequest c) {
            cancel(c);
        } else if (p instanceof StartupPacket.Unsupported u) {
            String msg = (u.code() >>> 16) == 2 ? "old V2 protocol not supported"
                    : String.format("bad packet header: '%08x%08x'", 8, u.code());
            session.fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION, msg), msg);
        } else if (p instanceof StartupPacket.Startup s) {
            startup(s);
        }
    }

    /**
     * Forwards the cancel when both halves of the key match a live client. Right or wrong, the
     * sender sees the same thing, a close with nothing written, so a flood of guesses learns
     * nothing (PgBouncer closes the cancel connection either way too). The close goes first so
     * that forwarding a right one does not even delay it.
     */
    private void cancel(StartupPacket.CancelRequest c) {
        ClientSession target = session.context().clients().byCancelKey(c.processId(), c.secretKey());
        step = Step.DONE;
        session.channel().close();
        if (target != null && target != session) {
            target.cancelRequested(c.secretKey());
        }
    }

    private void startup(StartupPacket.Startup s) {
        ChannelPipeline pipe = session.channel().pipeline();
        // until authenticated, messages stay within the startup decoder's pkt_buf limit
        int loginLimit = pipe.get(StartupDecoder.class).packetLimit();
        pipe.replace(StartupDecoder.class, "frames",
                new FrameDecoder(session.context().settings().maxPacketSize(), loginLimit, "d"));
        if (session.tlsState().missing()) {
            session.fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION, "SSL required"), "SSL required");
            return;
        }
        if (refusal != null) {
            session.fail(refusal, refusal.message());
            return;
        }
        user = s.user();
        if (user == null || user.isEmpty()) {
            session.fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION, "no username supplied"), "no username supplied");
            return;
        }
        String database = s.database();
        session.identify(database, user);
        SessionSettings cfg = session.context().settings();
        params = new ClientParams(cfg.trackedParameters());
        for (Map.Entry<String, String> e : s.parameters().entrySet()) {
            String key = e.getKey().toLowerCase(Locale.ROOT);
            if (key.equals("user") || key.equals("database")) {
                continue;
            }
            if (KNOWN.contains(key) || params.isTracked(key)) {
                params.set(e.getKey(), e.getValue());
            } else if (!cfg.ignoreStartupParameters().contains(key)) {
                session.fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION, "unsupported startup parameter: " + e.getKey()),
                        "unsupported startup parameter: " + e.getKey());
                return;
            }
        }
        if (cfg.applicationNameAddHost()) {
            params.set("application_name", params.applicationName() + " - "
                    + session.remote().address() + ":" + session.remote().port());
        }
        lookup = session.context().route(database, user);
        if (lookup instanceof RouteLookup.Refused) {
            // PgBouncer authenticates first and names the missing database only afterwards,
            // so that probing cannot tell which databases exist.
            authenticate(cfg.authType());
            return;
        }
        if (lookup instanceof RouteLookup.Console) {
            startConsoleLogin(cfg);
            return;
        }
        Route route = ((RouteLookup.Pooled) lookup).route();
        ClientRegistry clients = session.context().clients();
        if (route.maxDbClientConnections() > 0 && clients.clientsOfDatabase(database) >= route.maxDbClientConnections()) {
            session.fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION,
                    "client connections exceeded (max_db_client_connections)"), "client connections exceeded (max_db_client_connections)");
            return;
        }
        if (route.maxUserClientConnections() > 0 && clients.clientsOfUser(user) >= route.maxUserClientConnections()) {
            session.fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION,
                    "client connections exceeded (max_user_client_connections)"), "client connections exceeded (max_user_client_connections)");
            return;
        }
        session.countLogin();
        authenticate(cfg.authType());
    }

    /**
     * PgBouncer's console rules: its own uid over the Unix socket as "pgbouncer" gets in with
     * no password. Otherwise admin_users/stats_users are consulted only for a user that exists
     * (in auth_file, or the built-in "pgbouncer"); a name in neither list is "not allowed"
     * before any password. A user missing from auth_file goes through a login that cannot
     * succeed, whatever the lists say: auth_type = trust answers "trust" authentication failed,
     * so trust never admits an unlisted name.
     */
    private void startConsoleLogin(SessionSettings cfg) {
        boolean peerAdmin = session.unixSocket() && CONSOLE_USER.equals(user)
                && PeerCredentials.uidOf(session.channel()) == session.context().ownUid();
        if (peerAdmin) {
            consoleAdmin = true;
            finish();
            return;
        }
        boolean any = "any".equals(cfg.authType());
        boolean exists = any || CONSOLE_USER.equals(user) || session.context().secret(user) != null;
        if (exists && cfg.adminUsers().contains(user)) {
            consoleAdmin = true;
        } else if (exists && !cfg.statsUsers().contains(user) && !any) {
            session.fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION, "not allowed"), "not allowed");
            return;
        }
        session.countLogin();
        authenticate(cfg.authType());
    }

    // ---- authentication ---------------------------------------------------------------------

    private void authenticate(String authType) {
        String secret = session.context().secret(user);
        var ch = session.channel();
        switch (authType) {
            case "any" -> finish();
            case "trust" -> {
                // the console's built-in user exists without an auth_file entry, as in PgBouncer
                boolean builtIn = lookup instanceof RouteLookup.Console && CONSOLE_USER.equals(user);
                if (secret == null && !builtIn) {
                    session.log("no such user: " + user);
                    session.fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION, "\"trust\" authentication failed"),
                            "\"trust\" authentication failed");
                } else {
                    finish();
                }
            }
            case "plain", "password" -> {
                step = Step.PASSWORD;
                ch.writeAndFlush(Encoders.authentication(ch.alloc(), 3, new byte[0]));
            }
            case "md5" -> {
                if (secret != null && Secret.kindOf(secret) == Secret.Kind.SCRAM) {
                    startScram(secret);
                } else {
                    step = Step.MD5;
                    salt = new byte[4];
                    RANDOM.nextBytes(salt);
                    ch.writeAndFlush(Encoders.authentication(ch.alloc(), 5, salt));
                }
            }
            case "scram-sha-256" -> startScram(secret);
            case "cert" -> certLogin(secret);
            default -> session.fail(PgError.fatal(SqlState.FEATURE_NOT_SUPPORTED,
                    "not supported: auth_type " + authType), "not supported: auth_type " + authType);
        }
    }

    /**
     * auth_type = cert: the verified client certificate must name the user, who must exist in
     * auth_file. PgBouncer's log words for each reason; the client hears only the last line.
     */
    private void certLogin(String secret) {
        var cert = session.tlsState().peerCertificate();
        String why = session.tls() == null ? "TLS connection required"
                : cert == null ? "TLS client certificate required"
                : secret == null ? "no such user: " + user
                : !CertificateNames.names(cert, user) ? "TLS certificate name mismatch" : null;
        if (why == null) {
            finish();
            return;
        }
        session.log(why);
        session.fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION, "certificate authentication failed"),
                "certificate authentication failed");
    }

    private void startScram(String secret) {
        int iterations = 4096;
        if (secret == null) {
            byte[] mockKey = new byte[32];
            RANDOM.nextBytes(mockKey);
            scram = ScramServerExchange.mock(user, mockKey, iterations, NonceSource.secureRandom());
        } else {
            scram = ScramServerExchange.forStoredSecret(user, secret, iterations,
                    ScramSecret::randomSalt, NonceSource.secureRandom());
        }
        step = Step.SASL_FIRST;
        var ch = session.channel();
        ch.writeAndFlush(Encoders.authenticationSasl(ch.alloc(), List.of(ScramServerExchange.MECHANISM)));
    }

    void onFrame(Frame frame) {
        try {
            if (frame.type() != 'p' || step == Step.STARTUP || step == Step.WELCOME || step == Step.DONE) {
                session.fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION, "bad packet header"),
                        "unexpected packet during login");
                return;
            }
            String secret = session.context().secret(user);
            switch (step) {
                case PASSWORD -> {
                    String pw = FrontendDecoding.password(frame);
                    if (secret != null && CleartextAuth.verify(secret, user, pw)) {
                        finish();
                    } else {
                        wrongPassword();
                    }
                }
                case MD5 -> {
                    String response = FrontendDecoding.password(frame);
                    if (secret != null && Md5Auth.verify(secret, user, salt, response)) {
                        finish();
                    } else {
                        wrongPassword();
                    }
                }
                case SASL_FIRST -> {
                    var initial = FrontendDecoding.saslInitial(frame);
                    if (!ScramServerExchange.MECHANISM.equals(initial.mechanism())) {
                        saslFailed(AuthFailure.protocol("unsupported SASL mechanism: " + initial.mechanism()));
                        return;
                    }
                    String serverFirst = scram.serverFirst(initial.data());
                    step = Step.SASL_FINAL;
                    var ch = session.channel();
                    ch.writeAndFlush(Encoders.authentication(ch.alloc(), 11, serverFirst.getBytes(StandardCharsets.UTF_8)));
                }
                case SASL_FINAL -> {
                    var result = scram.verifyClientFinal(FrontendDecoding.saslResponse(frame));
                    if (result instanceof ScramServerExchange.Success ok) {
                        var ch = session.channel();
                        ch.write(Encoders.authentication(ch.alloc(), 12, ok.serverFinalMessage().getBytes(StandardCharsets.UTF_8)));
                        if (ok.passThroughUsable()) {
                            session.context().rememberScramKeys(user, ok.clientKey(), ok.serverKey());
                        }
                        finish();
                    } else if (result instanceof ScramServerExchange.Failure f) {
                        saslFailed(f.failure());
                    }
                }
                default -> { }
            }
        } catch (ScramException e) {
            saslFailed(e.failure());
        } finally {
            frame.release();
        }
    }

    private void wrongPassword() {
        session.fail(PgError.fatal(SqlState.INVALID_PASSWORD, "password authentication failed for user \"" + user + "\""),
                AuthFailure.PGBOUNCER_PASSWORD_REASON);
    }

    private void saslFailed(AuthFailure f) {
        if (f.isWrongPassword()) {
            session.fail(PgError.fatal(f.sqlState(), f.message()), AuthFailure.PGBOUNCER_SASL_REASON);
        } else {
            session.fail(PgError.fatal(f.sqlState(), f.message()), AuthFailure.PGBOUNCER_SASL_REASON);
        }
    }

    // ---- greeting ---------------------------------------------------------------------------

    /** Authenticated and greeted: from now on max_packet_size bounds the client's messages. */
    private void endLoginPhase() {
        FrameDecoder frames = session.channel().pipeline().get(FrameDecoder.class);
        if (frames != null) {
            frames.loginDone();
        }
    }

    private void finish() {
        if (lookup instanceof RouteLookup.Refused r) {
            if (session.context().settings().logConnections()) {
                session.log("login failed: db=" + session.database() + " user=" + user);
            }
            session.fail(r.error(), r.error().message());
            return;
        }
        if (lookup instanceof RouteLookup.Console) {
            step = Step.DONE;
            endLoginPhase();
            session.loggedIn(null, true, consoleAdmin, params, CONSOLE_WELCOME);
            return;
        }
        Route route = ((RouteLookup.Pooled) lookup).route();
        step = Step.WELCOME;
        session.context().welcome(route.poolKey(), new SessionContext.WelcomeCallback() {
            @Override
            public void welcome(Map<String, String> params) {
                if (step == Step.WELCOME && session.channel().isActive()) {
                    step = Step.DONE;
                    endLoginPhase();
                    session.loggedIn(route, false, false, ClientLogin.this.params, params);
                }
            }

            @Override
            public void failed(CheckoutFailure f) {
                if (step == Step.WELCOME) {
                    step = Step.DONE;
                    session.failCheckout(f);
                }
            }
        });
    }
}
