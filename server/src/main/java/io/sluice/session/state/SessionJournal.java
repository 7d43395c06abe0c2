package io.sluice.session.state;

import io.sluice.proto.TransactionStatus;
import io.sluice.session.state.SqlCommand.Kind;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A client's session as it would be on a server of its own: the parameters it SET (lower-case
 * name to value text, in the order set), its SQL-level prepared statements, and whether it did
 * something the pooler cannot replay. Fed with each completed statement in the server's order.
 *
 * <p>SET is transactional: changes wait in the transaction's journal until it commits (COMMIT,
 * or the end of an implicit transaction without error), are cut back by ROLLBACK TO SAVEPOINT
 * and dropped by ROLLBACK. PREPARE and DEALLOCATE are not transactional and apply at once. Each
 * committed change is applied to the server the client is linked to as well, so the server's
 * record ({@link ServerSession}) stays true.
 */
public final class SessionJournal {
    private record Savepoint(String name, int size) {
    }

    private final Set<String> ignored;
    private final Map<String, String> settings = new LinkedHashMap<>();
    private final Map<String, String> sqlPrepared = new LinkedHashMap<>();
    private String unsure;
    private final List<SqlCommand> pending = new ArrayList<>();
    /** Most sessions never set a savepoint (the default's 16 slots, in every client, add up). */
    private final ArrayDeque<Savepoint> savepoints = new ArrayDeque<>(2);
    private boolean failed;
    private boolean probe;

    /** @param ignored lower-case parameter names tracked elsewhere (ParameterStatus reports them) */
    public SessionJournal(Set<String> ignored) {
        this.ignored = ignored;
    }

    public Map<String, String> settings() {
        return settings;
    }

    public Map<String, String> sqlPrepared() {
        return sqlPrepared;
    }

    /** Why the client's session cannot be rebuilt on another server, or null. */
    public String unsure() {
        return unsure;
    }

    /**
     * A statement completed with CommandComplete {@code tag} on {@code server}. A tag the
     * classification did not expect makes the session unsure instead of guessing.
     */
    public void completed(SqlCommand c, String tag, ServerSession server) {
        if (c.probe()) {
            probe = true;
        }
        if (!c.kind().matches(tag)) {
            pending.add(new SqlCommand(Kind.UNSURE, "'" + tag + "' answered a " + c.kind() + " statement",
                    null, false, -1, -1));
            return;
        }
        switch (c.kind()) {
            case SET, RESET -> {
                if (!ignored.contains(c.name().toLowerCase(Locale.ROOT))) {
                    pending.add(c);
                }
            }
            case RESET_ALL, UNSURE -> pending.add(c);
            case COMMIT -> endTransaction(tag.equals("COMMIT"), server);
            case ROLLBACK -> endTransaction(false, server);
            case SAVEPOINT -> savepoints.push(new Savepoint(c.name(), pending.size()));
            case ROLLBACK_TO -> rollbackTo(c.name());
            case RELEASE -> release(c.name());
            case PREPARE -> {
                sqlPrepared.put(c.name(), c.value());
                server.sqlPrepared().put(c.name(), c.value());
            }
            case DEALLOCATE -> {
                sqlPrepared.remove(c.name());
                server.sqlPrepared().remove(c.name());
            }
            case DEALLOCATE_ALL -> {
                sqlPrepared.clear();
                server.sqlPrepared().clear();
            }
            case DISCARD_ALL -> {
                sqlPrepared.clear();
                server.sqlPrepared().clear();
                settings.clear();
                server.settings().clear();
                unsure = null;
                pending.clear();
            }
            case BEGIN, OTHER -> { }
        }
    }

    /** An ErrorResponse: the transaction (explicit or implicit) will not commit. */
    public void error() {
        failed = true;
    }

    /**
     * ReadyForQuery: at IDLE the transaction is over; its changes apply unless it failed.
     *
     * @return true when a statement of the finished transaction may have created or dropped
     *         pinning state, so the server should be probed now
     */
    public boolean ready(TransactionStatus status, ServerSession server) {
        if (status != TransactionStatus.IDLE) {
            return false;
        }
        endTransaction(!failed, server);
        boolean p = probe;
        probe = false;
        return p;
    }

    /** The probe could not run at this transaction's end (more was pipelined): ask at the next. */
    public void probeLater() {
        probe = true;
    }

    private void endTransaction(boolean commit, ServerSession server) {
        if (commit) {
            // indexed: ends every transaction, nearly always with nothing pending, and an iterator
            // is an object each time
            for (int i = 0; i < pending.size(); i++) {
                apply(pending.get(i), server);
            }
        }
        pending.clear();
        savepoints.clear();
        failed = false;
    }

    private void apply(SqlCommand c, ServerSession server) {
        switch (c.kind()) {
            case SET -> {
                String name = c.name().toLowerCase(Locale.ROOT);
                settings.put(name, c.value());
                server.settings().put(name, c.value());
            }
            case RESET -> {
                String name = c.name().toLowerCase(Locale.ROOT);
                settings.remove(name);
                server.settings().remove(name);
            }
            case RESET_ALL -> {
                settings.clear();
                server.settings().clear();
                unsure = null;
            }
            case UNSURE -> unsure = c.name();
            default -> { }
        }
    }

    private void rollbackTo(String name) {
        Iterator<Savepoint> it = savepoints.iterator();
        while (it.hasNext()) {
            Savepoint s = it.next();
            if (s.name().equals(name)) {
                pending.subList(s.size(), pending.size()).clear();
                failed = false;
                return;
            }
            it.remove();
        }
    }

    private void release(String name) {
        while (!savepoints.isEmpty()) {
            if (savepoints.pop().name().equals(name)) {
                return;
            }
        }
    }

    /** Forget everything (the server it was on was reset with DISCARD ALL). */
    public void clear() {
        settings.clear();
        sqlPrepared.clear();
        unsure = null;
        pending.clear();
        savepoints.clear();
        failed = false;
        probe = false;
    }
}
