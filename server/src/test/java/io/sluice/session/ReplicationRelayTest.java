package io.sluice.session;

import io.netty.channel.embedded.EmbeddedChannel;
import io.sluice.config.PoolMode;
import io.sluice.proto.TransactionStatus;
import io.sluice.proto.codec.Encoders;
import io.sluice.proto.codec.RunJoiner;
import io.sluice.proto.codec.StartupDecoder;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.sluice.session.SessionHarness.ALLOC;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 12 item 10, the session's part: a replication client gets its own server, opened with its
 * replication mode, its parameters and its options verbatim, everything passes through, and the
 * server goes when the client goes.
 */
class ReplicationRelayTest {
    @Test
    void aReplicationClientIsRelayedToItsOwnServer() {
        SessionHarness h = new SessionHarness(PoolMode.TRANSACTION);
        EmbeddedChannel repl = new EmbeddedChannel(new StartupDecoder(4096, Integer.MAX_VALUE), new RunJoiner(),
                new ClientSession(h, false));
        repl.writeInbound(Encoders.startup(ALLOC, Map.of("user", "u", "database", "db", "replication", "database",
                "options", "-c enable_seqscan=off -d 1", "application_name", "abc")));
        assertThat(h.replicationStartup).containsEntry("replication", "database")
                .containsEntry("options", "-c enable_seqscan=off -d 1").containsEntry("application_name", "abc");
        assertThat(h.checkouts).as("no pooled server").isZero();
        assertThat(SessionHarness.drain(repl)).startsWith("R").endsWith("KZ");

        repl.writeInbound(Encoders.query(ALLOC, "IDENTIFY_SYSTEM"));
        assertThat(SessionHarness.drain(h.serverChannel)).isEqualTo("Q");
        h.serverAnswers(TransactionStatus.IDLE);
        assertThat(SessionHarness.drain(repl)).isEqualTo("CZ");
        h.serverAnswers(TransactionStatus.IDLE); // ReadyForQuery does not release it: it is never pooled
        assertThat(h.leaseEnds).isEmpty();
        assertThat(SessionHarness.drain(repl)).isEqualTo("CZ");

        repl.close();
        assertThat(h.server.isOpen()).as("closed with its client").isFalse();
    }

    @Test
    void replicationIsReadAsPgBouncerReadsIt() {
        assertThat(Replication.of("database")).isEqualTo(Replication.LOGICAL);
        for (String yes : new String[] {"true", "on", "yes", "1", "t"}) {
            assertThat(Replication.of(yes)).as(yes).isEqualTo(Replication.PHYSICAL);
        }
        for (String no : new String[] {"false", "off", "0", "nonsense"}) {
            assertThat(Replication.of(no)).as(no).isEqualTo(Replication.NONE);
        }
        assertThat(Replication.of(null)).isEqualTo(Replication.NONE);
    }
}
