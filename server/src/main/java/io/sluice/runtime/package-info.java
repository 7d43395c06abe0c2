/**
 * Process shell and lifecycle: the PgBouncer-compatible command line ({@link io.sluice.runtime.Cli}),
 * {@link io.sluice.runtime.Main}, daemon mode, pidfile, and signal handling
 * ({@link io.sluice.runtime.Signals}). The server itself sits behind
 * {@link io.sluice.runtime.Lifecycle}, started by a {@link io.sluice.runtime.ServerStarter} or
 * {@link io.sluice.runtime.QuickStarter} found with {@link java.util.ServiceLoader}.
 *
 * <p>Signals: a JVM cannot handle SIGQUIT (HotSpot keeps it for thread dumps), and under
 * {@code -Xrs} it handles no signal at all, so the {@code sluice} launcher script stays the
 * parent, its pid goes into the pidfile, and it forwards HUP/INT/TERM/USR1/USR2 and turns QUIT
 * into {@link io.sluice.runtime.LauncherEnv#QUIT_STAND_IN}. May use every Sluice package.
 */
package io.sluice.runtime;
