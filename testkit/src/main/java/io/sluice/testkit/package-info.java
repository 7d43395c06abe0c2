/**
 * Test fixtures shared by every Sluice test: free ports, bounded waits, external command
 * runners, and real processes started in temp dirs (a PostgreSQL cluster, Debian's PgBouncer,
 * the Sluice server jar as a child JVM).
 *
 * <p>Every process started here is stopped by its owner's {@code close()}/{@code stop()} and,
 * as a last resort, by one JVM shutdown hook, so nothing outlives the test JVM. Every wait is
 * bounded. Servers that refuse to run as root (PostgreSQL, PgBouncer) run as the OS user
 * {@code postgres} when the JVM runs as root.
 *
 * <p>Package tests install packages into a {@link io.sluice.testkit.ThrowawayRoot} (an overlay
 * of this machine's root in private namespaces) and run their systemd units with
 * {@link io.sluice.testkit.ServiceRun}, so the machine stays as it was.
 *
 * <p>May depend on the JDK, junit-jupiter-api, pgjdbc and Netty's native unix socket (for
 * {@link io.sluice.testkit.DatagramInbox}) only; never on the {@code server} module (the
 * server's integration tests depend on this one).
 */
package io.sluice.testkit;
