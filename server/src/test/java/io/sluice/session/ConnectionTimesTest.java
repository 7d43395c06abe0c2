package io.sluice.session;

import static io.sluice.session.SessionHarness.ALLOC;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.embedded.EmbeddedChannel;
import io.sluice.config.PoolMode;
import io.sluice.pool.fakes.VirtualScheduler;
import io.sluice.proto.TransactionStatus;
import io.sluice.proto.codec.Encoders;
import io.sluice.proto.codec.StartupDecoder;
import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * connect_time and request_time in SHOW CLIENTS and SHOW SERVERS, and the age in "closing because"
 * lines, all from the loop's clock: PgBouncer sets a connection's request_time to its connect time
 * and stamps it at every packet it reads from it, login packets too.
 */
class ConnectionTimesTest {
    private static final long T0 = VirtualScheduler.EPOCH_MILLIS;

    @Test
    void aClientsRequestTimeIsItsConnectTimeUntilItsFirstPacketThenEachPacketsTime() {
        var h = new SessionHarness(PoolMode.TRANSACTION);
        h.time.advanceMillis(1_000);
        ClientSession s = new ClientSession(h, false);
        EmbeddedChannel ch = new EmbeddedChannel(new StartupDecoder(4096, Integer.MAX_VALUE), s);
        assertThat(s.connectTimeMillis()).isEqualTo(T0 + 1_000);
        assertThat(s.requestTimeMillis()).as("nothing sent yet: the connect time").isEqualTo(T0 + 1_000);

        h.time.advanceMillis(250);
        ch.writeInbound(Encoders.startup(ALLOC, Map.of("user", "u", "database", "db")));
        assertThat(s.state()).isEqualTo(ClientSession.State.IDLE);
        assertThat(s.requestTimeMillis()).as("the startup packet").isEqualTo(T0 + 1_250);
        assertThat(s.connectTimeMillis()).isEqualTo(T0 + 1_000);
        ch.finishAndReleaseAll();
    }

    @Test
    void aServersRequestTimeIsItsLastPacketsTime() {
        var h = new SessionHarness(PoolMode.TRANSACTION);
        assertThat(h.server.connectTimeMillis()).isEqualTo(T0);
        assertThat(h.server.requestTimeMillis()).as("its login packets").isEqualTo(T0);

        h.time.advanceMillis(1_500);
        h.clientSends(Encoders.query(ALLOC, "select 1"));
        assertThat(h.session.requestTimeMillis()).isEqualTo(T0 + 1_500);
        assertThat(h.server.requestTimeMillis()).as("a query sent to it is no packet from it").isEqualTo(T0);

        h.time.advanceMillis(2_000);
        h.serverAnswers(TransactionStatus.IDLE);
        assertThat(h.server.requestTimeMillis()).as("its answer").isEqualTo(T0 + 3_500);
        assertThat(h.session.requestTimeMillis()).as("answers are no client request").isEqualTo(T0 + 1_500);
    }

    @Test
    void aClosingLinesAgeIsCountedOnTheSameClock() throws Exception {
        SessionHarness.Config config = new SessionHarness.Config();
        config.logDisconnections = true;
        SessionHarness.withLogFile(file -> {
            var h = new SessionHarness(PoolMode.TRANSACTION, config);
            h.time.advanceMillis(7_000);
            h.clientSends(Encoders.terminate(ALLOC));
            assertThat(Files.readString(file)).contains("closing because: client close request (age=7s)");
        });
    }
}
