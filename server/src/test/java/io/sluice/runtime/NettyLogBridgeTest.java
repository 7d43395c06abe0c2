package io.sluice.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.util.internal.logging.InternalLogger;
import io.sluice.log.Log;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** Netty's log lines in Sluice's log: its warnings and errors as PgBouncer-shaped lines, its chatter not. */
class NettyLogBridgeTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final Log log = new Log(Clock.fixed(Instant.parse("2026-12-06T00:00:00Z"), ZoneOffset.UTC), 42,
            new PrintStream(out, true, StandardCharsets.UTF_8));
    // newInstance directly: installing the factory would change every Netty logger of this test JVM
    private final InternalLogger netty = new NettyLogBridge(log).newInstance("io.netty.channel.Test");

    private String lines() {
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void warningsAndErrorsBecomeLogLinesWithTheirArgumentsAndCause() {
        netty.warn("Unexpected exception in the {} loop: {}", "io", 7);
        netty.error("LEAK: {} was not released", "ByteBuf", new IOException("boom"));
        String at = "2026-12-06 00:00:00.000 UTC [42] ";
        assertThat(lines()).isEqualTo(at + "WARNING io.netty.channel.Test: Unexpected exception in the io loop: 7\n"
                + at + "ERROR io.netty.channel.Test: LEAK: ByteBuf was not released: java.io.IOException: boom\n");
        assertThat(netty.isWarnEnabled()).isTrue();
        assertThat(netty.isErrorEnabled()).isTrue();
    }

    @Test
    void traceAndDebugNeverPrintAndInfoNeedsNoise() {
        log.setVerbose(2);
        assertThat(netty.isTraceEnabled()).isFalse();
        assertThat(netty.isDebugEnabled()).isFalse();
        netty.trace("completed {}", 1);
        netty.debug("-Dio.netty.{}: {}", "bitMode", 64);
        netty.debug("plain");
        assertThat(lines()).isEmpty();

        log.setVerbose(1);
        assertThat(netty.isInfoEnabled()).isFalse();
        netty.info("transport {}", "io_uring");
        assertThat(lines()).isEmpty();

        log.setVerbose(2);
        assertThat(netty.isInfoEnabled()).isTrue();
        netty.info("transport {} with {} loops", "io_uring", 1, new IllegalStateException("late"));
        assertThat(lines()).isEqualTo("2026-12-06 00:00:00.000 UTC [42] NOISE io.netty.channel.Test: "
                + "transport io_uring with 1 loops: java.lang.IllegalStateException: late\n");
    }
}
