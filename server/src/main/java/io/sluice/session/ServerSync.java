package io.sluice.session;

import io.sluice.backend.ServerConnection;
import io.sluice.log.Log;
import io.sluice.session.state.ServerSession;
import io.sluice.session.state.SyncPlan;

/**
 * The record of a server's session kept with the connection, and the replay that brings a
 * server to a client's session when the client lands on it: RESET of what another client set,
 * SET of the client's values, DEALLOCATE of SQL-level statements the client does not have and
 * PREPARE of those it has. The record is updated as each query is sent and corrected if it fails,
 * so it is right for the client messages pipelined behind.
 */
final class ServerSync {
    private ServerSync() {
    }

    /** The state kept with a server, created on its first use by a router. */
    static ServerSession stateOf(ServerConnection s, int maxPrepared) {
        if (s.sessionState() instanceof ServerSession ss) {
            if (ss.statements().max() != maxPrepared) {
                ss.statements().bound(maxPrepared);
            }
            return ss;
        }
        ServerSession ss = new ServerSession(maxPrepared);
        s.sessionState(ss);
        return ss;
    }

    /** The server's session was reset (DISCARD ALL): whatever Sluice knew of it is gone. */
    static void serverReset(ServerConnection s) {
        if (s.sessionState() instanceof ServerSession ss) {
            ss.reset();
        }
    }

    static void replay(StatementRouter r, SyncPlan plan) {
        if (plan.empty()) {
            return;
        }
        ServerSession ss = r.serverState;
        String sid = "S-0x" + Long.toHexString(r.server.id());
        if (plan.resets() != null) {
            plan.resetNames().forEach(ss.settings()::remove);
            r.internal(plan.resets(), ok -> warnIf(!ok, sid, plan.resets()), null);
        }
        if (plan.sets() != null) {
            ss.settings().putAll(plan.setValues());
            r.internal(plan.sets(), ok -> {
                if (!ok) {
                    // one implicit transaction: none of them took; the server has its defaults
                    plan.setValues().keySet().forEach(ss.settings()::remove);
                    warnIf(true, sid, plan.sets());
                }
            }, null);
        }
        for (String name : plan.deallocates()) {
            ss.sqlPrepared().remove(name);
            r.internal("DEALLOCATE " + SyncPlan.quoteIdent(name), ok -> { }, null);
        }
        for (String name : plan.prepares()) {
            String text = r.journal.sqlPrepared().get(name);
            ss.sqlPrepared().put(name, text);
            r.internal(text, ok -> {
                if (!ok) {
                    ss.sqlPrepared().remove(name);
                    warnIf(true, sid, text);
                }
            }, null);
        }
    }

    private static void warnIf(boolean failed, String sid, String sql) {
        if (failed) {
            Log.global().warning(sid + ": replaying client session state failed: " + sql);
        }
    }
}
