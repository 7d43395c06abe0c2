package io.sluice.session;

import io.netty.channel.ChannelPipeline;
import io.sluice.auth.AuthMethod;
import io.sluice.auth.ClientAuthDecision;
import io.sluice.auth.ClientAuthExchange;
import io.sluice.auth.ClientAuthExchange.Expect;
import io.sluice.auth.ClientAuthPolicy;
import io.sluice.auth.LoginRequest;
import io.sluice.auth.UserLookup;
import io.sluice.config.userlist.Secret;
import io.sluice.log.Level;
import io.sluice.pool.CheckoutFailure;
import io.sluice.proto.Frame;
import io.sluice.proto.PgError;
import io.sluice.proto.StartupPacket;
import io.sluice.proto.codec.FrameDecoder;
import io.sluice.proto.codec.FrontendDecoding;
import io.sluice.proto.codec.ParameterStatuses;
import io.sluice.proto.codec.StartupDecoder;
import io.sluice.stats.DatabaseStats;
import io.sluice.tls.CertificateNames;

import java.util.Optional;

/**
 * The login of one client: startup packet checks, routing, console access, finding the user
 * and carrying the exchange that {@link ClientAuthPolicy} and {@link ClientAuthExchange}
 * decide, and the greeting once the pool's server parameters are known. What it sends the
 * client, {@link LoginReplies} writes. Ends by calling {@link ClientSession#loggedIn} or
 * {@link ClientSession#fail}.
 */
final class ClientLogin {
    /** The console's built-in user (PgBouncer's fake "pgbouncer" user of its admin database). */
    private static final String CONSOLE_USER = "pgbouncer";
    /** PgBouncer's reason for a message it does not take during login; the client gets no answer. */
    private static final String BAD_PACKET = "bad packet";

    private enum Step { STARTUP, LOOKUP, AUTH, WELCOME, DONE }

    private final ClientSession session;
    private final LoginReplies replies;
    private final SessionTimers timers;
    private Step step = Step.STARTUP;
    private PgError refusal;
    private RouteLookup lookup;
    private ClientParams params;
    private String user;
    private ClientAuthExchange exchange;
    private boolean consoleAdmin;
    private Replication replication = Replication.NONE;
    private String replicationOptions;

    ClientLogin(ClientSession session, SessionTimers timers) {
        this.session = session;
        this.replies = new LoginReplies(session);
        this.timers = timers;
    }

    /** The client is over a limit; tell it once it has sent its startup packet. */
    void refuseWhenStarted(PgError error) {
        refusal = error;
    }

    void dispose() {
        step = Step.DONE;
        replies.writeHeld();
    }

    /** An accepted SCRAM exchange's AuthenticationSASLFinal data, for the greeting; null for none. */
    byte[] takeSaslFinal() {
        return replies.takeSaslFinal();
    }

    /**
     * The client owes the next move: its startup packet or its password (PgBouncer's CL_LOGIN
     * list). Not while an auth_query or the pool's first server is awaited (CL_WAITING_LOGIN).
     */
    boolean awaitingClient() {
        return step == Step.STARTUP || step == Step.AUTH;
    }

    /** Authenticated, the login waits for its pool's first server (PgBouncer's wait_for_welcome). */
    boolean awaitingWelcome() {
        return step == Step.WELCOME;
    }

    // ---- startup ----------------------------------------------------------------------------

    void onStartupPacket(StartupPacket p) {
        if (step != Step.STARTUP) {
            replies.refuse("bad packet header");
            return;
        }
        if (p instanceof StartupPacket.SslRequest) {
            session.tlsState().sslRequested();
        } else if (p instanceof StartupPacket.GssEncRequest) {
            replies.gssEncRequested();
        } else if (p instanceof StartupPacket.CancelRequest c) {
            step = Step.DONE;
            CancelRequests.handle(session, c);
        } else if (p instanceof StartupPacket.BadCancel) {
            // closed with nothing written, as PgBouncer and PostgreSQL do
            step = Step.DONE;
            session.close("bad cancel request");
        } else if (p instanceof StartupPacket.Typed t) {
            // PgBouncer's handle_client_startup: a password before any startup packet is named;
            // any other message there is closed on without an answer
            step = Step.DONE;
            if (t.type() == 'p') {
                replies.refuse("client password pkt before startup packet");
            } else {
                session.close(BAD_PACKET);
            }
        } else if (p instanceof StartupPacket.Unsupported u) {
            // PgBouncer's words (1.18 and 1.25 alike), which name the header bytes; PostgreSQL 15
            // says 0A000 "unsupported frontend protocol 4.0: server supports 3.0 to 3.0"
            String msg = (u.code() >>> 16) == 2 ? "old V2 protocol not supported"
                    : String.format("bad packet header: '%08x%08x'", u.length(), u.code());
            replies.refuse(msg);
        } else if (p instanceof StartupPacket.Startup s) {
            startup(s);
        }
    }

    private void startup(StartupPacket.Startup s) {
        ChannelPipeline pipe = session.channel().pipeline();
        // until authenticated, messages stay within the startup decoder's pkt_buf limit
        int loginLimit = pipe.get(StartupDecoder.class).packetLimit();
        pipe.replace(StartupDecoder.class, "frames",
                new FrameDecoder(session.context().settings().maxPacketSize(), loginLimit, "d", session));
        if (session.tlsState().missing()) {
            replies.refuse("SSL required");
            return;
        }
        // max_client_conn spares the console, so an operator can still get in when clients are at it
        if (refusal != null && !ClientSession.CONSOLE_POOL.database().equals(s.database())) {
            replies.refuse(refusal);
            return;
        }
        user = s.user();
        if (user == null || user.isEmpty()) {
            replies.refuse("no username supplied");
            return;
        }
        String database = s.database();
        SessionSettings cfg = session.context().settings();
        params = new ClientParams(cfg.trackedParameters());
        replication = Replication.of(s.parameters().get("replication"));
        StartupParameters.Read read = StartupParameters.read(session, replies, cfg, s.parameters(), params,
                replication != Replication.NONE);
        if (read == null) {
            return;
        }
        replicationOptions = read.replicationOptions();
        // PgBouncer names the client's pool in its log lines only once the startup packet passed
        session.identify(database, user);
        if (cfg.applicationNameAddHost()) {
            params.set("application_name", params.applicationName() + " - "
                    + session.remote().address() + ":" + session.remote().port());
        }
        if (!params.applicationName().isEmpty()) {
            ClientLog.debug(session, () -> "using application_name: " + params.applicationName());
        }
        if (s.minorVersion() > 0 || !read.protocolOptions().isEmpty()) {
            // a 3.x client newer than us, or one asking for protocol extensions: as PostgreSQL 15
            // (and PgBouncer's current source; 1.18 refused 3.1 as a "bad packet header"), tell
            // it what we speak, 3.0 and none of its _pq_ options, and go on with the login
            replies.negotiateProtocol(read.protocolOptions());
        }
        lookup = session.context().route(database, user);
        if (lookup instanceof RouteLookup.Misconfigured m) {
            session.identify("", "");
            ClientLog.line(session, Level.ERROR, m.problem());
            replies.refuse("bouncer config error");
            return;
        }
        if (lookup instanceof RouteLookup.Refused) {
            // PgBouncer authenticates first and names the missing database only afterwards,
            // so that probing cannot tell which databases exist.
            authenticate();
            return;
        }
        if (lookup instanceof RouteLookup.Console console) {
            startConsoleLogin(cfg, console);
            return;
        }
        RouteLookup.Pooled pooled = (RouteLookup.Pooled) lookup;
        if (pooled.newAutoDatabase()) {
            // PgBouncer registers it before the client has a pool or a user: "(nodb)/(nouser)"
            ClientLog.withoutUser(session, "registered new auto-database: " + database);
        }
        Route route = pooled.route();
        if (cfg.authType() == AuthMethod.ANY) {
            // auth_type = any logs the client in as the database's forced user, whoever it named
            user = route.poolKey().user();
            session.identify(database, user);
        }
        if (overClientLimits(database, route.maxDbClientConnections(), route.maxUserClientConnections())) {
            return;
        }
        session.countLogin();
        authenticate();
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
            session.loginAttempt(false);
            finish();
            return;
        }
        // the client limits hold for the console too, except for admin_users (PgBouncer's rule)
        if (!cfg.adminUsers().contains(user) && overClientLimits(session.database(),
                limits.maxDbClientConnections(), limits.maxUserClientConnections())) {
            return;
        }
        boolean any = cfg.authType() == AuthMethod.ANY;
        boolean exists = any || CONSOLE_USER.equals(user) || session.context().secret(user) != null;
        if (exists && cfg.adminUsers().contains(user)) {
            consoleAdmin = true;
        } else if (exists && !cfg.statsUsers().contains(user) && !any) {
            session.loginAttempt(false); // PgBouncer logs the attempt, then admin_post_login refuses it
            replies.refuse("not allowed");
            return;
        }
        if (any && (consoleAdmin || cfg.statsUsers().contains(user))) {
            // auth_type = any keeps no client name: a listed user is the console's own "pgbouncer"
            user = CONSOLE_USER;
            session.identify(session.database(), user);
        }
        session.countLogin();
        authenticate();
    }

    /** Refuses the client when its database or user is at its client limit (0 = none). */
    private boolean overClientLimits(String database, int maxDb, int maxUser) {
        ClientRegistry clients = session.context().clients();
        String which = maxDb > 0 && clients.clientsOfDatabase(database) >= maxDb ? "max_db_client_connections"
                : maxUser > 0 && clients.clientsOfUser(user) >= maxUser ? "max_user_client_connections" : null;
        if (which == null) {
            return false;
        }
        replies.refuse("client connections exceeded (" + which + ")");
        return true;
    }

    // ---- authentication ---------------------------------------------------------------------

    /**
     * Finds the user (auth_file, then auth_query), then lets {@link ClientAuthPolicy} pick the
     * method. auth_type = any names no user and looks none up.
     */
    private void authenticate() {
        step = Step.LOOKUP;
        if (session.context().settings().authType() == AuthMethod.ANY) {
            found(new UserLookup.Known(Secret.of("")));
            return;
        }
        // auth_query runs for a database that exists, as in PgBouncer, and never for the console
        String db = lookup instanceof RouteLookup.Pooled ? session.database() : null;
        session.context().lookupUser(db, user, () -> step == Step.LOOKUP && session.channel().isActive(), this::found);
    }

    /**
     * auth_type = cert: the verified client certificate must name the user, who must exist in
     * auth_file. PgBouncer's log words for each reason; the client hears only the last line.
     */
    private void certLogin(Secret secret) {
        var cert = session.tlsState().peerCertificate();
        String why = session.tls() == null ? "TLS connection required"
                : cert == null ? "TLS client certificate required"
                : secret == null ? "no such user: " + user
                : !CertificateNames.names(cert, user) ? "TLS certificate name mismatch" : null;
        if (why == null) {
            finish();
            return;
        }
        ClientLog.line(session, why);
        replies.refuse("certificate authentication failed");
    }

    private void found(UserLookup found) {
        if (step != Step.LOOKUP || !session.channel().isActive()) {
            return;
        }
        if (found instanceof UserLookup.Refused r) {
            // PgBouncer has no user for the client until auth_query answers: "db/(nouser)"
            session.identify(session.database(), "");
            replies.refuse(PgError.fatal(r.sqlState(), r.message()));
            return;
        }
        Secret secret = found instanceof UserLookup.Known k ? k.secret() : null;
        if (secret == null && lookup instanceof RouteLookup.Console && CONSOLE_USER.equals(user)) {
            secret = Secret.of(""); // the console's built-in user exists without an auth_file entry, as in PgBouncer
        } else if (secret == null) {
            ClientLog.withoutUser(session, "no such user: " + user);
        }
        session.loginAttempt(secret == null || lookup instanceof RouteLookup.Refused r && r.noSuchDatabase());
        SessionSettings cfg = session.context().settings();
        var ch = session.channel();
        var peer = ch.remoteAddress() instanceof java.net.InetSocketAddress a ? a.getAddress() : null;
        ClientAuthDecision d = ClientAuthPolicy.decide(new LoginRequest(cfg.authType(), cfg.hba(),
                session.unixSocket(), session.tls() != null, peer, session.database(), user,
                Optional.ofNullable(secret).map(Secret::kind), () -> PeerCredentials.userNameOf(ch)));
        switch (d.action()) {
            case ACCEPT -> finish();
            case REJECT -> replies.refuse(d.reason());
            case CHECK_CERT -> certLogin(secret);
            default -> {
                step = Step.AUTH;
                exchange = ClientAuthExchange.secure(d, user, secret).channelBinding(session.tlsState().channelBinding());
                answer(exchange.first());
            }
        }
    }

    void onFrame(Frame frame) {
        try {
            Expect expect = exchange == null || step != Step.AUTH ? Expect.NOTHING : exchange.expects();
            if (frame.type() != 'p') {
                // as PgBouncer: closed without an answer
                step = Step.DONE;
                session.close(BAD_PACKET);
                return;
            }
            if (expect == Expect.NOTHING) {
                replies.refuse("bad packet header", "unexpected packet during login");
                return;
            }
            answer(switch (expect) {
                case PASSWORD -> exchange.password(FrontendDecoding.password(frame));
                case SASL_INITIAL -> {
                    var initial = FrontendDecoding.saslInitial(frame);
                    ClientLog.debug(session, () -> "C: selected SASL mechanism: " + initial.mechanism());
                    yield exchange.saslInitial(initial.mechanism(), initial.data());
                }
                default -> exchange.saslResponse(FrontendDecoding.saslResponse(frame));
            });
        } finally {
            frame.release();
        }
    }

    /** Sends one step of the password exchange ({@link LoginReplies}); once accepted, the login goes on. */
    private void answer(ClientAuthExchange.Step s) {
        replies.send(s);
        if (s instanceof ClientAuthExchange.Accepted a) {
            if (a.clientKey() != null) {
                session.context().rememberScramKeys(user, a.clientKey(), a.serverKey());
            }
            finish();
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
            if (r.noSuchDatabase() && session.context().settings().logConnections()) {
                ClientLog.line(session, "login failed: db=" + session.database() + " user=" + user);
            }
            replies.refuse(r.error());
            return;
        }
        if (lookup instanceof RouteLookup.Console) {
            step = Step.DONE;
            endLoginPhase();
            session.loggedIn(null, true, consoleAdmin, params, LoginReplies.CONSOLE_WELCOME);
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
        // A login waiting for its pool's first server is under query_timeout as well as the
        // pool's query_wait_timeout, whichever ends first (PgBouncer's CL_WAITING_LOGIN clients);
        // greeting the client cancels it with the other timers.
        timers.arm(SessionTimers.Slot.QUERY, route.queryTimeout(), () -> {
            if (step == Step.WELCOME) {
                step = Step.DONE;
                replies.refuse("query_timeout");
            }
        });
        long welcomeAsked = session.context().clock().nanoTime();
        session.context().welcome(route.poolKey(), new SessionContext.WelcomeCallback() {
            @Override
            public void welcome(ParameterStatuses params) {
                if (step == Step.WELCOME && session.channel().isActive()) {
                    step = Step.DONE;
                    // PgBouncer counts a login's wait for its pool's first server in wait_time
                    session.context().stats(route.poolKey().database()).add(DatabaseStats.WAIT_TIME,
                            (session.context().clock().nanoTime() - welcomeAsked) / 1000);
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
        if (step == Step.WELCOME) {
            // no greeting known yet: the login waits for the pool's first server (most logins
            // find the greeting and were answered above, without entering the waiters' lists)
            session.context().clients().awaitsWelcome(session, route.poolKey(), welcomeAsked);
        }
    }
}
