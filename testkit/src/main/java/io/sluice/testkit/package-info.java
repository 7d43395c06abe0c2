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
 * <p>May depend on the JDK, junit-jupiter-api and pgjdbc only; never on the {@code server}
 * module (the server's integration tests depend on this one).
 */
package io.sluice.testkit;
