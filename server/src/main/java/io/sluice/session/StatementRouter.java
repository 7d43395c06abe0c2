package io.sluice.session;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.sluice.backend.ServerConnection;
import io.sluice.proto.Frame;
import io.sluice.proto.PgError;
import io.sluice.proto.ProtocolException;
import io.sluice.proto.SqlState;
import io.sluice.proto.codec.ExtendedCodec;
import io.sluice.proto.codec.FrameSink;
import io.sluice.session.state.ClientStatements;
import io.sluice.session.state.PinProbe;
import io.sluice.session.state.ServerSession;
import io.sluice.session.state.SessionJournal;
import io.sluice.session.state.SqlClassifier;
import io.sluice.session.state.SqlCommand;
import io.sluice.session.state.StatementKey;
import io.sluice.session.state.SyncPlan;
import io.sluice.stats.DatabaseStats;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Keeps a client's session whole in transaction and statement pooling while its servers change:
 * the client → server half. Named protocol statements go to each server under Sluice's own names
 * (prepared there on first use, answered locally when it has them, closed locally); SET/RESET and
 * SQL-level PREPARE are replayed on a new server before the client's own messages; after a
 * transaction that may have created LISTEN, temporary tables, advisory locks or WITH HOLD cursors
 * the server is asked, and the client keeps it while any exist. Every answer the server or Sluice
 * owes is queued in order ({@link Expected}); {@link ReplyRouter} matches the server's replies to
 * it. The {@link Relay} delegates every message to this while a server is linked. Event loop only.
 */
final class StatementRouter {
    /** What the router needs from its relay. */
    interface Owner {
        /** The pin probe answered; the relay may now release the server. */
        void probeDone();

        /** Replies and requests no longer line up: the session cannot continue. */
        void desync(String why);
    }

    /** Where writes to the client start ({@link ClientSession#writer}). */
    final ChannelHandlerContext client;
    /** The relay's promise for writes to the client ({@link ClientSide#clientVoid}). */
    final ChannelPromise clientVoid;
    /** Where relayed frames go to the client ({@link ClientSide#clientRelay}). */
    final FrameSink clientRelay;
    final ByteBufAllocator alloc;
    final Owner owner;
    final DatabaseStats stats;
    final int maxPrepared;
    final ClientStatements statements = new ClientStatements();
    final SessionJournal journal;
    /** Sized for an extended-protocol query's replies (the default's 16 slots, in every client, add up). */
    final ArrayDeque<Expected> queue = new ArrayDeque<>(8);
    final ReplyRouter replies;
    final Portals portals = new Portals();
    /** With max_prepared_statements = 0 names pass through; what each does is still tracked. */
    final Map<String, SqlCommand> passedThrough = new HashMap<>();
    SqlCommand unnamed = SqlCommand.NONE;
    ServerConnection server;
    ServerSession serverState;
    /** A locally raised error: the client's messages are dropped up to its Sync, as the server would. */
    private boolean skipping;
    boolean wroteClient;
    PinProbe pins = PinProbe.NONE;
    boolean probing;

    /**
     * @param ignored lower-case parameter names ClientParams already replays from ParameterStatus
     */
    StatementRouter(ChannelHandlerContext client, ChannelPromise clientVoid, FrameSink clientRelay, Owner owner,
                    DatabaseStats stats, int maxPrepared, Set<String> ignored) {
        this.client = client;
        this.clientVoid = clientVoid;
        this.clientRelay = clientRelay;
        this.alloc = client.alloc();
        this.owner = owner;
        this.stats = stats;
        this.maxPrepared = maxPrepared;
        this.journal = new SessionJournal(ignored);
        this.replies = new ReplyRouter(this);
    }

    // ---- linking ------------------------------------------------------------------------------

    /**
     * A server was linked: before the client's messages, bring it to the client's settings and
     * SQL-level statements ({@link ServerSync}). Each query's answer is swallowed; they cost no
     * round trip.
     */
    void attached(ServerConnection s) {
        server = s;
        serverState = ServerSync.stateOf(s, maxPrepared);
        ServerSync.replay(this, SyncPlan.between(journal, serverState));
        sendPendingCloses();
    }

    /** The server goes back to the pool (or away): nothing may still be owed. */
    void detached() {
        queue.clear();
        portals.clear();
        server = null;
        serverState = null;
        probing = false;
    }

    /** Keep the server: a probe is out, answers are owed, or the session holds pinning state. */
    boolean holdsServer() {
        return probing || !queue.isEmpty() || pinned();
    }

    /** Answers the server still owes up to a ReadyForQuery each (Sluice's own queries once the client is synced). */
    int readiesOwed() {
        int n = 0;
        for (Expected e : queue) {
            if (e.endsAtReady() && e.action != Expected.Action.FAKE) {
                n++;
            }
        }
        return n;
    }

    /** State exists that only this server has (LISTEN, temp tables, locks, cursors) or that cannot be replayed. */
    boolean pinned() {
        return pins.pinned() || journal.unsure() != null;
    }

    /** Why this client is pinned, for the console and the log. */
    String pinReason() {
        String u = journal.unsure();
        String p = pins.pinned() ? pins.describe() : "";
        return u == null ? p : (p.isEmpty() ? "" : p + " ") + "unsure=" + u;
    }

    // ---- client -> server ---------------------------------------------------------------------

    /** One client message for the linked server; takes ownership. */
    void toServer(Frame f) {
        byte t = f.type();
        if (skipping) {
            if (t != 'S') {
                f.release();
                return;
            }
            skipping = false;
        }
        if (maxPrepared > 0 && (t == 'P' || t == 'B' || t == 'D')) {
            if (t == 'P' && ExtendedCodec.brokenNamedParse(f)) {
                throw new ProtocolException(PgError.fatal(SqlState.PROTOCOL_VIOLATION, "broken Parse packet"));
            }
            sendPendingCloses();
        }
        try {
            switch (t) {
                case 'P' -> parse(f);
                case 'B' -> bind(f);
                case 'D' -> describe(f);
                case 'C' -> close(f);
                case 'E' -> {
                    Expected e = marked(new Expected('E', Expected.Action.FORWARD));
                    e.command = portals.get(ExtendedCodec.firstString(f, 'E', null));
                    send(e, f);
                }
                case 'S', 'F' -> send(Expected.relayed((char) t), f);
                case 'Q' -> query(f);
                default -> server.write(f);
            }
        } catch (ProtocolException unterminated) {
            // a name or text without its terminator, found before anything was done with the
            // message. As PgBouncer 1.25: with prepared statements tracked, it refuses such a Parse,
            // Bind, Describe or Close; anything else goes on, and PostgreSQL answers "invalid
            // string in message" and skips to Sync
            if (maxPrepared > 0 && "PBDC".indexOf(t) >= 0) {
                throw new ProtocolException(PgError.fatal(SqlState.PROTOCOL_VIOLATION, "failed to parse packet"),
                        "failed to parse prepared statement packet type '" + (char) t + "'");
            }
            send(Expected.relayed((char) t), f);
        }
    }

    private Expected marked(Expected e) {
        e.clientMark = statements.mark();
        e.serverMark = serverState.statements().mark();
        return e;
    }

    private void send(Expected e, Frame f) {
        queue.add(e);
        server.write(f);
    }

    private void send(Expected e, ByteBuf msg) {
        queue.add(e);
        server.write(new Frame((byte) e.kind, msg));
    }

    /** Answers the client from Sluice, in order behind whatever the server still owes. */
    private void answer(Expected e) {
        queue.add(e);
        replies.emitFakes();
    }

    /** An error PostgreSQL itself would raise here; like it, drop what follows up to Sync. */
    private void fail(char kind, PgError error) {
        answer(Expected.fakeError(kind, error));
        skipping = true;
    }

    // Parse, Bind, Describe, Close and Query read their names in place (ExtendedCodec.stringAt): most
    // clients send unnamed statements, and those are relayed as they are, with no slice made

    private void parse(Frame f) {
        String name = ExtendedCodec.firstString(f, 'P', null);
        int text = f.bodyStart() + name.length() + 1;
        if (name.isEmpty() || maxPrepared == 0) {
            SqlCommand cmd;
            try {
                cmd = ParseTexts.ofThisLoop().classify(f.buffer(), text, f.end());
            } catch (ProtocolException unterminatedText) {
                // passed on, as PgBouncer passes a Parse it does not track: PostgreSQL refuses it
                cmd = SqlCommand.NONE;
            }
            if (name.isEmpty()) {
                unnamed = cmd;
            } else {
                passedThrough.put(name, cmd);
            }
            countServerParse();
            send(Expected.relayed('P'), f);
            return;
        }
        if (statements.has(name)) {
            f.release();
            fail('P', PgError.error("42P05", "prepared statement \"" + name + "\" already exists"));
            return;
        }
        StatementKey key = new StatementKey(ExtendedCodec.rest(f.buffer().slice(text, f.end() - text)));
        f.release();
        ClientStatements.Entry entry = statements.add(name, key, ParseTexts.classify(key.query()));
        if (serverState.statements().lookup(key) != null) {
            Expected e = Expected.fake('P', '1');
            e.clientName = name;
            e.entry = entry;
            answer(e);
            return;
        }
        prepareOnServer(key, name, entry, Expected.Action.FORWARD);
    }

    /** Sends a Parse of {@code key} under a fresh server name, closing what the LRU evicts first. */
    private String prepareOnServer(StatementKey key, String clientName, ClientStatements.Entry entry,
                                   Expected.Action action) {
        var added = serverState.statements().add(key);
        for (String evicted : added.evicted()) {
            Expected c = new Expected('C', Expected.Action.INTERNAL);
            c.serverName = evicted;
            send(c, ExtendedCodec.describeOrClose(alloc, 'C', 'S', evicted));
        }
        Expected p = new Expected('P', action);
        p.clientName = clientName;
        p.entry = entry;
        p.key = key;
        p.serverName = added.name();
        countServerParse();
        send(p, ExtendedCodec.parse(alloc, added.name(), key.bytes()));
        return added.name();
    }

    /** The server's name for a client statement, preparing it there first if it lacks it. */
    private String ensure(ClientStatements.Entry entry) {
        String name = serverState.statements().lookup(entry.key());
        return name != null ? name : prepareOnServer(entry.key(), null, null, Expected.Action.HIDDEN);
    }

    private void sendPendingCloses() {
        if (!serverState.statements().hasCloses()) {
            return; // every message of every transaction asks: no iterator made when nothing waits
        }
        for (String name : serverState.statements().takeCloses()) {
            Expected c = new Expected('C', Expected.Action.INTERNAL);
            c.serverName = name;
            send(c, ExtendedCodec.describeOrClose(alloc, 'C', 'S', name));
        }
    }

    private void countServerParse() {
        if (stats != null) {
            stats.add(DatabaseStats.SERVER_PARSE, 1);
        }
    }

    private void bind(Frame f) {
        int at = f.bodyStart();
        String portal = ExtendedCodec.stringAt(f, at, 'B', null);
        at += portal.length() + 1;
        String name = ExtendedCodec.stringAt(f, at, 'B', null);
        at += name.length() + 1;
        if (name.isEmpty() || maxPrepared == 0) {
            portals.put(portal, name.isEmpty() ? unnamed : passedThrough.getOrDefault(name, SqlCommand.NONE));
            send(Expected.relayed('B'), f);
            return;
        }
        ClientStatements.Entry entry = statements.get(name);
        if (entry == null) {
            f.release();
            fail('B', PgError.error("26000", "prepared statement \"" + name + "\" does not exist"));
            return;
        }
        String serverName = ensure(entry);
        portals.put(portal, entry.command());
        Expected b = new Expected('B', Expected.Action.FORWARD);
        b.key = entry.key();
        b.serverName = serverName;
        ByteBuf msg = ExtendedCodec.bind(alloc, portal, serverName, f.buffer().slice(at, f.end() - at));
        f.release();
        send(b, msg);
    }

    private void describe(Frame f) {
        int at = f.bodyStart();
        if (f.end() - at < 2 || f.buffer().getByte(at) != 'S' || maxPrepared == 0) {
            send(Expected.relayed('D'), f);
            return;
        }
        String name = ExtendedCodec.stringAt(f, at + 1, 'D', null);
        if (name.isEmpty()) {
            send(Expected.relayed('D'), f);
            return;
        }
        f.release();
        ClientStatements.Entry entry = statements.get(name);
        if (entry == null) {
            fail('D', PgError.error("26000", "prepared statement \"" + name + "\" does not exist"));
            return;
        }
        Expected d = new Expected('D', Expected.Action.FORWARD);
        d.key = entry.key();
        d.serverName = ensure(entry);
        send(d, ExtendedCodec.describeOrClose(alloc, 'D', 'S', d.serverName));
    }

    private void close(Frame f) {
        int at = f.bodyStart();
        boolean statement = f.end() - at >= 2 && f.buffer().getByte(at) == 'S';
        String name = statement ? ExtendedCodec.stringAt(f, at + 1, 'C', null) : "";
        if (!statement || name.isEmpty() || maxPrepared == 0) {
            passedThrough.remove(name);
            send(Expected.relayed('C'), f);
            return;
        }
        // the server keeps the statement for whoever uses it next; PostgreSQL answers a Close
        // of a name that does not exist with CloseComplete too
        f.release();
        statements.remove(name);
        answer(Expected.fake('C', '3'));
    }

    private void query(Frame f) {
        String sql = ExtendedCodec.firstString(f, 'Q', null);
        List<SqlCommand> cmds = SqlClassifier.classify(sql);
        Expected q = marked(new Expected('Q', Expected.Action.FORWARD));
        q.commands = cmds;
        String rewritten = maxPrepared == 0 ? null : deallocateProtocolNames(sql, cmds);
        if (rewritten == null) {
            send(q, f);
        } else {
            f.release();
            send(q, ExtendedCodec.query(alloc, rewritten));
        }
    }

    /**
     * SQL DEALLOCATE of a protocol-level name (PHP PDO closes its statements so): the server
     * knows the statement by Sluice's name, so that name is written in instead (prepared first
     * if this server lacks it) and the client's name is gone. Null when nothing needs it.
     */
    private String deallocateProtocolNames(String sql, List<SqlCommand> cmds) {
        StringBuilder out = null;
        for (int i = cmds.size() - 1; i >= 0; i--) {
            SqlCommand c = cmds.get(i);
            if (c.kind() != SqlCommand.Kind.DEALLOCATE || journal.sqlPrepared().containsKey(c.name())) {
                continue;
            }
            ClientStatements.Entry entry = statements.get(c.name());
            if (entry == null) {
                continue;
            }
            String serverName = ensure(entry);
            serverState.statements().forget(entry.key(), serverName);
            statements.remove(c.name());
            if (out == null) {
                out = new StringBuilder(sql);
            }
            out.replace(c.nameStart(), c.nameEnd(), serverName);
        }
        return out == null ? null : out.toString();
    }

    // ---- Sluice's own queries on the linked server -------------------------------------------

    /** Runs {@code sql} on the server in line with the client's messages; its answer is swallowed. */
    void internal(String sql, Consumer<Boolean> done, Consumer<List<String>> row) {
        Expected q = new Expected('Q', Expected.Action.INTERNAL);
        q.done = done;
        q.row = row;
        send(q, ExtendedCodec.query(alloc, sql));
    }

    /** Asks the server whether pinning state exists; {@link Owner#probeDone()} follows its answer. */
    void probe() {
        probing = true;
        PinProbe[] seen = {PinProbe.UNKNOWN};
        internal(PinProbe.SQL, ok -> {
            pins = ok ? seen[0] : PinProbe.UNKNOWN;
            probing = false;
            owner.probeDone();
        }, row -> seen[0] = PinProbe.of(row));
        server.flush();
    }

    /** Writes a message of Sluice's own to the client. */
    void toClient(ByteBuf msg) {
        client.write(msg, clientVoid);
        wroteClient = true;
    }
}
