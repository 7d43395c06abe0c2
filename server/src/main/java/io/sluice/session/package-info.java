/**
 * Client sessions. {@link io.sluice.session.ClientSession} is the thin Netty handler of the
 * client side; login is {@link io.sluice.session.ClientLogin}, the admin console
 * {@link io.sluice.session.ConsoleSession}, and the relay between a client and the server it
 * leases {@link io.sluice.session.Relay}, which releases per pool mode as
 * {@link io.sluice.session.ReleasePolicy} decides. Session timers run on the injected clock and
 * scheduler ({@link io.sluice.session.SessionTimers}).
 *
 * <p>Places, not counters: a client's state names the list it is in (login, or per pool idle,
 * active, waiting), {@code ClientSession.moveTo} is the one transition, and SHOW POOLS/CLIENTS
 * read {@link io.sluice.session.ClientRegistry}'s list sizes. A client counts in the pool that
 * serves it (with {@code force_user}, the forced user's pool).
 *
 * <p>Threading decision: Sluice runs every channel (clients, servers, listeners) and the pool
 * engine on one event loop, like PgBouncer's single thread. A leased server therefore always
 * shares its client's loop, so the relay touches both channels directly with no hops and no
 * locks, and the engine needs no synchronisation. Spreading pools over several loops (with
 * affinity and hops) is a later step.
 *
 * <p>Backpressure both ways ({@link io.sluice.session.ReadGate}): a server stops reading while
 * its client is not writable; a client stops reading while its server is not writable, while it
 * queues more than 64 KiB waiting for a server, and while a console command runs. Frames a
 * decoder already produced when reading stops are relayed, at most one read's worth.
 *
 * <p>In transaction and statement pooling the relay hands every message to a
 * {@link io.sluice.session.StatementRouter} (client to server) and
 * {@link io.sluice.session.ReplyRouter} (server to client), which keep the client's session
 * whole across servers using the pure model in {@code session.state}: named statements under
 * per-server names, SET and SQL PREPARE replayed on a new server ({@link io.sluice.session.ServerSync}),
 * pins for state that cannot move ({@link io.sluice.session.PinGuard}). One ordered queue of
 * owed answers keeps pipelines in order.
 *
 * <p>A client that leaves while its server runs a query or holds an open transaction takes that
 * server with it ("client disconnect while server was not ready"), as PgBouncer does: rolling
 * back would keep the departed session's named statements and settings for the next client.
 *
 * <p>May use {@code proto*}, {@code auth}, {@code pool}, {@code backend}, {@code net},
 * {@code config}, {@code stats}, {@code util}.
 */
package io.sluice.session;
