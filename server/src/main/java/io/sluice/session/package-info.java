/**
 * Client sessions: startup and login ({@link io.sluice.session.ClientLogin}), the admin console
 * hand-off, and the relay between a client and the server it leased, releasing the server per
 * pool mode at ReadyForQuery boundaries.
 *
 * <p>Threading decision: Sluice runs every channel (clients, servers, listeners) and the pool
 * engine on one event loop, like PgBouncer's single thread. A leased server therefore always
 * shares its client's loop, so the relay touches both channels directly with no hops and no
 * locks, and the engine needs no synchronisation. Backpressure: a server stops reading while
 * its client is not writable ({@code setAutoRead}), and a client stops reading while it waits
 * for a server; frames a decoder already produced are queued in the session, at most one read's
 * worth. Spreading pools over several loops (with affinity and hops) is a later step.
 *
 * <p>May use {@code proto*}, {@code auth}, {@code pool}, {@code backend}, {@code net},
 * {@code config}, {@code stats}.
 */
package io.sluice.session;
