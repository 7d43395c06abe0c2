/**
 * PgBouncer-shaped logging: {@code 2026-11-30 10:37:27.600 UTC [pid] LOG message}, the level
 * words PgBouncer prints, {@code -v}/{@code verbose} filtering, stderr and {@code logfile}
 * sinks, and the {@code C-0x..}/{@code S-0x..} connection prefixes. Depends on the JDK only, so
 * every other package may use it.
 */
package io.sluice.log;
