package io.sluice.session;

import io.sluice.backend.ServerConnection;
import io.sluice.log.Level;

import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The SETs that give a newly linked server the client's tracked parameters (PgBouncer's
 * varcache_apply). Values a server already took are pipelined: the SETs go out right before
 * the client's own messages, the server connection swallows their results up to their
 * ReadyForQuery and relays what follows, so a server switch costs no extra round trip. A value
 * from the startup packet that no server has taken yet may be refused (a TimeZone typed wrong):
 * as with PgBouncer, the client's messages then wait for the answer, and a refusal ends server
 * and client instead of running the client's queries with another client's value.
 */
final class ParameterSync {
    private final ClientParams params;
    /** The server the client has now (null when none). */
    private final Supplier<ServerConnection> linked;
    /** Once the waited-for answer is in: the values were taken, the client's messages may go. */
    private final Runnable taken;
    /** Once the waited-for answer is in: the server refused a value. */
    private final Consumer<ServerConnection> refused;
    /** The client's messages wait for the answer to SETs of values no server has taken yet. */
    private boolean trying;

    ParameterSync(ClientParams params, Supplier<ServerConnection> linked, Runnable taken,
            Consumer<ServerConnection> refused) {
        this.params = params;
        this.linked = linked;
        this.taken = taken;
        this.refused = refused;
    }

    boolean trying() {
        return trying;
    }

    /** The client or its server went away: no answer is waited for any more. */
    void stop() {
        trying = false;
    }

    /** Sends the SETs {@code server} needs, if any; true when the client's messages must wait for their answer. */
    boolean start(ServerConnection server) {
        String sync = params.syncQuery(server.params());
        if (sync == null) {
            return false;
        }
        boolean held = params.syncTriesNew(server.params().values());
        trying = held;
        server.internal().run(sync, ok -> {
            if (!held) {
                if (!ok) {
                    server.log(Level.WARNING, "setting client parameters failed: " + sync);
                }
                return;
            }
            if (!trying || linked.get() != server || !server.isOpen()) {
                return; // the client or the server went away meanwhile
            }
            trying = false;
            if (ok) {
                params.allTaken();
                taken.run();
            } else {
                refused.accept(server);
            }
        });
        return held;
    }
}
