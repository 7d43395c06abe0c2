package io.sluice.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.log.Log;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Signal dispatch rules without real signals (those are in SignalProcessTest). */
class SignalsTest {
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final Log log = new Log(Clock.fixed(Instant.EPOCH, ZoneOffset.UTC), 1, new PrintStream(err, true, StandardCharsets.UTF_8));
    private final FakeLifecycle lifecycle = new FakeLifecycle();
    private final AtomicInteger halts = new AtomicInteger();
    private final Signals signals = new Signals(lifecycle, log, halts::incrementAndGet);

    private List<String> messages() {
        return err.toString(StandardCharsets.UTF_8).lines().map(l -> l.substring(l.indexOf(" LOG ") + 5)).toList();
    }

    @Test
    void termThenTerm() {
        signals.handle("TERM");
        signals.handle("TERM");
        assertThat(lifecycle.events).containsExactly("shutdownWaitForClients");
        assertThat(halts).hasValue(1);
        assertThat(messages()).containsExactly(
                "got SIGTERM, shutting down, waiting for all clients disconnect",
                "got SIGTERM while shutting down, fast exit");
    }

    @Test
    void intThenTermIsFast() {
        signals.handle("INT");
        signals.handle("TERM");
        assertThat(lifecycle.events).containsExactly("shutdownWaitForServers");
        assertThat(halts).hasValue(1);
        assertThat(messages()).containsExactly(
                "got SIGINT, shutting down, waiting for all servers connections to be released",
                "got SIGTERM while shutting down, fast exit");
    }

    @Test
    void termThenInt() {
        signals.handle("TERM");
        signals.handle("INT");
        assertThat(messages()).last().isEqualTo("got SIGINT while shutting down, fast exit");
    }

    @Test
    void pauseResumeStates() {
        signals.handle("USR2");
        signals.handle("USR1");
        signals.handle("USR1");
        signals.handle("USR2");
        lifecycle.pauseMode = PauseMode.SUSPEND;
        signals.handle("USR2");
        assertThat(lifecycle.events).containsExactly("pause", "resume", "resume");
        assertThat(messages()).containsExactly(
                "got SIGUSR2, but not paused/suspended",
                "got SIGUSR1, pausing all activity",
                "got SIGUSR1, but already paused/suspended",
                "got SIGUSR2, continuing from PAUSE",
                "got SIGUSR2, continuing from SUSPEND");
    }

    @Test
    void usr2WhileShuttingDownIsIgnored() {
        lifecycle.pauseMode = PauseMode.PAUSE;
        signals.handle("INT");
        signals.handle("USR2");
        assertThat(lifecycle.events).containsExactly("shutdownWaitForServers");
        assertThat(messages()).last().isEqualTo("got SIGUSR2 while shutting down, ignoring");
    }

    @Test
    void hupReloads() {
        signals.handle("HUP");
        assertThat(lifecycle.events).containsExactly("reload");
        assertThat(messages()).containsExactly("got SIGHUP, re-reading config");
    }

    @Test
    void quitHaltsWithoutTouchingTheServer() {
        signals.handle("QUIT");
        assertThat(halts).hasValue(1);
        assertThat(lifecycle.events).isEmpty();
        assertThat(messages()).containsExactly("got SIGQUIT, fast exit");
    }

    @Test
    void unknownSignalIsAProgrammingError() {
        assertThatThrownBy(() -> signals.handle("WINCH")).isInstanceOf(IllegalArgumentException.class);
    }
}
