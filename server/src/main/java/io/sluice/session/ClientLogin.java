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
    private static final Set<String> KNOWN = Set.of("application_name", "client_encoding",
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
    private Replication replication = Replication.NONE;
    private String replicationOptions;

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
        if (p instanceof StartupPacket.SslRequest || p instanceof StartupPacket.GssEncRequest) {
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
     * Forwards the cancel when both halves of the key match a live client with a query running.
     * Right or wrong, the sender sees the same thing, a close with nothing written, so a flood of
     * guesses learns nothing from the answer. A forwarded one closes only once PostgreSQL has
     * taken it, as PgBouncer does, so the sender's cancel call returns when the cancel is done.
     */
    private void cancel(StartupPacket.CancelRequest c) {
        ClientSession target = session.context().clients().byCancelKey(c.processId(), c.secretKey());
        step = Step.DONE;
        if (target == null || target == session
                || !target.cancelRequested(c.secretKey(), () -> session.channel().close())) {
            session.channel().close();
        }
    }

    private void startup(StartupPacket.Startup s) {
        ChannelPipeline pipe = session.channel().pipeline();
        // until authenticated, messages stay within the startup decoder's pkt_buf limit
        int loginLimit = pipe.get(StartupDecoder.class).packetLimit();
        pipe.replace(StartupDecoder.class, "frames",
                new FrameDecoder(session.context().settings().maxPacketSize(), loginLimit, "d"));
        // max_client_conn spares the console, so an operator can still get in when clients are at it
        if (refusal != null && !ClientSession.CONSOLE_POOL.database().equals(s.database())) {
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
        replication = Replication.of(s.parameters().get("replication"));
        for (Map.Entry<String, String> e : s.parameters().entrySet()) {
            String key = e.getKey().toLowerCase(Locale.ROOT);
            if (key.equals("user") || key.equals("database") || key.equals("replication")) {
                continue;
            }
            if (key.equals("options") && replication != Replication.NONE) {
                replicationOptions = e.getValue(); // its own server takes any options, verbatim
                continue;
            }
            if (key.equals("options")) {
                StartupOptions.Refused refused = StartupOptions.apply(e.getValue(), params, KNOWN,
                        cfg.ignoreStartupParameters());
                if (refused != null) {
                    session.fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION, refused.message()), refused.message());
                    return;
                }
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
        if (lookup instanceof RouteLookup.Console console) {
            startConsoleLogin(cfg, console);
            return;
        }
        RouteLookup.Pooled pooled = (RouteLookup.Pooled) lookup;
        if (pooled.newAutoDatabase()) {
            session.log("registered new auto-database: " + database);
        }
        Route route = pooled.route();
        if (overClientLimits(database, route.maxDbClientConnections(), route.maxUserClientConnections())) {
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
    private void startConsoleLogin(SessionSettings cfg, RouteLookup.Console limits) {
        boolean peerAdmin = session.unixSocket() && CONSOLE_USER.equals(user)
                && PeerCredentials.uidOf(session.channel()) == session.context().ownUid();
        if (peerAdmin) {
            consoleAdmin = true;
            finish();
            return;
        }
        // the client limits hold for the console too, except for admin_users (PgBouncer's rule)
        if (!cfg.adminUsers().contains(user) && overClientLimits(session.database(),
                limits.maxDbClientConnections(), limits.maxUserClientConnections())) {
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

    /** Refuses the client when its database or user is at its client limit (0 = none). */
    private boolean overClientLimits(String database, int maxDb, int maxUser) {
        ClientRegistry clients = session.context().clients();
        String which = maxDb > 0 && clients.clientsOfDatabase(database) >= maxDb ? "max_db_client_connections"
                : maxUser > 0 && clients.clientsOfUser(user) >= maxUser ? "max_user_client_connections" : null;
        if (which == null) {
            return false;
        }
        String msg = "client connections exceeded (" + which + ")";
        session.fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION, msg), msg);
        return true;
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
            default -> session.fail(PgError.fatal(SqlState.FEATURE_NOT_SUPPORTED,
                    "not supported: auth_type " + authType), "not supported: auth_type " + authType);
        }
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

    /**
     * PgBouncer's words, which clients and scripts match on; the SQLSTATE stays PostgreSQL's 28P01
     * for a wrong password (PgBouncer sends 08P01) because drivers key "bad credentials" on it.
     */
    private void wrongPassword() {
        session.fail(PgError.fatal(SqlState.INVALID_PASSWORD, AuthFailure.PGBOUNCER_PASSWORD_REASON),
                AuthFailure.PGBOUNCER_PASSWORD_REASON);
    }

    /** Any failed SCRAM exchange reads "SASL authentication failed", as in PgBouncer. */
    private void saslFailed(AuthFailure f) {
        String sqlState = f.isWrongPassword() ? SqlState.INVALID_PASSWORD : SqlState.PROTOCOL_VIOLATION;
        session.fail(PgError.fatal(sqlState, AuthFailure.PGBOUNCER_SASL_REASON), AuthFailure.PGBOUNCER_SASL_REASON);
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
        if (replication != Replication.NONE) {
            ReplicationStart.start(session, route, replication, params, replicationOptions, greeted -> {
                step = Step.DONE;
                if (greeted) {
                    endLoginPhase();
                }
            });
            return;
        }
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
