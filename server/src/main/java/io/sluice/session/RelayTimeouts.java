package io.sluice.session;

import io.sluice.proto.PgError;
import io.sluice.proto.codec.Encoders;
import io.sluice.session.SessionTimers.Slot;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * PgBouncer's client timeouts for one relayed session, each on its own {@link Slot} and each
 * with PgBouncer's reason words, driven by what the {@link Relay} sees:
 * <ul>
 * <li>client_idle_timeout: no server linked and nothing sent;
 * <li>idle_transaction_timeout: only while the transaction waits for the client, from the
 *     ReadyForQuery that left it open until the client's next message (PgBouncer's idle_tx);
 * <li>query_timeout: from the client's latest message for as long as its server is busy or in a
 *     transaction (PgBouncer's request_time against a server that is not "ready": a client
 *     idle inside a transaction counts too, and query_timeout wins over a longer
 *     idle_transaction_timeout), and for a request still queued for a server ("query_timeout",
 *     as PgBouncer words that case);
 * <li>transaction_timeout: from a transaction's first message (a single statement outside a
 *     block counts) until the ReadyForQuery that ends it, whether it runs or waits;
 * <li>query_wait_notify: one NOTICE per client once it has been queued longer than that.
 * </ul>
 * Event loop only.
 */
final class RelayTimeouts {
    static final String WAIT_NOTICE = "No server connection available in postgres backend, client being queued";

    private final ClientSession session;
    private final Route route;
    private final SessionTimers timers;
    /** PgBouncer's "not ready": the linked server owes an answer or is in a transaction. */
    private final BooleanSupplier serverNotReady;
    /** Ends the session under a timeout's reason (the relay closes a linked server first). */
    private final Consumer<String> onExpired;
    /** Start of the open transaction (context clock), or -1 when none is open. */
    private long transactionStart = -1;
    private boolean waitNoticeSent;
    // built once: these are armed around every transaction
    private final Runnable onWaitTimeout = () -> expire("query_timeout");
    private final Runnable onQueryTimeout = this::queryTimedOut;
    private final Runnable onWaitNotice = this::sendWaitNotice;
    private final Runnable onTransactionTimeout = () -> expire("transaction timeout");
    private final Runnable onIdleTransactionTimeout = () -> expire("idle transaction timeout");
    private final Runnable onClientIdleTimeout = () -> expire("client_idle_timeout");

    RelayTimeouts(ClientSession session, Route route, SessionTimers timers, BooleanSupplier serverNotReady,
                  Consumer<String> expire) {
        this.session = session;
        this.route = route;
        this.timers = timers;
        this.serverNotReady = serverNotReady;
        this.onExpired = expire;
    }

    long now() {
        return timers.now();
    }

    /** Any message from the client: the transaction is no longer idle; the first one opens it. */
    void clientSent() {
        timers.cancel(Slot.IDLE);
        if (transactionStart < 0) {
            transactionStart = now();
        }
    }

    /** The client's request goes to the pool: whatever it answers, the client is not idle. */
    void asking() {
        timers.cancel(Slot.IDLE);
    }

    /**
     * The pool did not answer at once: the request is queued for a server. Only then, so that a
     * checkout the pool answers from an idle server, the rule, schedules no timer.
     */
    void waiting() {
        timers.arm(Slot.QUERY, route.queryTimeout(), onWaitTimeout);
        long notify = TimeUnit.NANOSECONDS.toSeconds(session.context().settings().queryWaitNotify());
        if (notify > 0 && !waitNoticeSent) {
            // PgBouncer compares whole seconds waited with "> query_wait_notify": the notice
            // goes out once a full second more than the setting has passed.
            timers.arm(Slot.WAIT_NOTICE, TimeUnit.SECONDS.toNanos(notify + 1), onWaitNotice);
        }
    }

    private void sendWaitNotice() {
        waitNoticeSent = true;
        var ch = session.channel();
        ch.writeAndFlush(Encoders.error(ch.alloc(), PgError.notice(WAIT_NOTICE, null)));
    }

    /** A server is linked: the wait is over. */
    void linked() {
        timers.cancel(Slot.WAIT_NOTICE);
        timers.cancel(Slot.QUERY);
    }

    /**
     * Any client message goes to the server: query_timeout counts again from now, and ends the
     * session when it runs out while the server is still not ready.
     */
    void forwarded() {
        timers.arm(Slot.QUERY, route.queryTimeout(), onQueryTimeout);
    }

    private void queryTimedOut() {
        if (serverNotReady.getAsBoolean()) {
            expire("query timeout");
        }
    }

    /** A query (Query, Sync, FunctionCall) goes to the server. */
    void queryForwarded() {
        long limit = route.transactionTimeout();
        if (limit > 0 && !timers.armed(Slot.TRANSACTION)) {
            long left = transactionStart + limit - now();
            timers.arm(Slot.TRANSACTION, Math.max(1, left), onTransactionTimeout);
        }
    }

    /**
     * The last ReadyForQuery of a pipeline. IDLE ends the transaction and its server is ready
     * again; inside a transaction query_timeout goes on counting from the client's last message.
     */
    void queryDone(boolean transactionEnded) {
        if (transactionEnded) {
            timers.cancel(Slot.QUERY);
            timers.cancel(Slot.TRANSACTION);
            transactionStart = -1;
        }
    }

    /** Nothing runs: arm the idle timer that applies (none while an idle session server is linked). */
    void idle(boolean serverLinked, boolean inTransaction) {
        if (serverLinked && inTransaction) {
            timers.arm(Slot.IDLE, route.idleTransactionTimeout(), onIdleTransactionTimeout);
        } else if (!serverLinked) {
            timers.arm(Slot.IDLE, route.clientIdleTimeout(), onClientIdleTimeout);
        } else {
            timers.cancel(Slot.IDLE);
        }
    }

    void cancelAll() {
        timers.cancelAll();
    }

    private void expire(String reason) {
        onExpired.accept(reason);
    }
}
