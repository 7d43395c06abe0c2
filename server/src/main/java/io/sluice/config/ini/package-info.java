/**
 * Reading pgbouncer.ini text: the line-level ini grammar with {@code %include}
 * ({@link io.sluice.config.ini.IniParser}) and the libpq-like {@code key=value} strings of
 * {@code [databases]}, {@code [users]} and {@code [peers]}
 * ({@link io.sluice.config.ini.ConnStringParser}). No meaning is attached to keys here.
 * Depends on the JDK only.
 */
package io.sluice.config.ini;
