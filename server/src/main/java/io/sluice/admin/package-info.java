/**
 * The admin console (database {@code pgbouncer}): the command parser, one declarative table per
 * SHOW command (column name, type OID and extractor, in PgBouncer 1.25.2's order), the control
 * commands with PgBouncer's exact error texts, and a protocol-free result model
 * ({@link io.sluice.admin.AdminResult}) that {@code proto.codec} turns into wire messages.
 *
 * <p>Everything the console reads or changes goes through {@link io.sluice.admin.AdminContext},
 * which the runtime implements over the pool engine, stats and config; the row records in this
 * package are the whole data boundary. No Netty, no protocol bytes.
 *
 * <p>May use {@code pool}, {@code stats}, {@code config}, {@code proto} and {@code util}
 * (it currently needs only the JDK).
 */
package io.sluice.admin;
