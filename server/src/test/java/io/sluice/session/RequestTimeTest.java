package io.sluice.session;

import static io.sluice.session.SessionHarness.ALLOC;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.embedded.EmbeddedChannel;
import io.sluice.config.PoolMode;
import io.sluice.pool.fakes.VirtualScheduler;
import io.sluice.proto.TransactionStatus;
import io.sluice.proto.codec.Encoders;
import io.sluice.proto.codec.StartupDecoder;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * request_time in SHOW CLIENTS and SHOW SERVERS, from the context's clock: PgBouncer sets a client's
 * to its connect time at accept and stamps it at every packet it reads, login packets too.
 */
class RequestTimeTest {
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
    void aQueryStampsTheClientAndTheServerItIsLinkedTo() {
        var h = new SessionHarness(PoolMode.TRANSACTION);
        assertThat(h.server.requestTimeMillis()).as("never linked").isZero();

        h.time.advanceMillis(1_500);
        h.clientSends(Encoders.query(ALLOC, "select 1"));
        assertThat(h.session.requestTimeMillis()).isEqualTo(T0 + 1_500);
        assertThat(h.server.requestTimeMillis()).as("linked at the query").isEqualTo(T0 + 1_500);

        h.time.advanceMillis(2_000);
        h.serverAnswers(TransactionStatus.IDLE);
        assertThat(h.session.requestTimeMillis()).as("answers are no request").isEqualTo(T0 + 1_500);
    }
}
