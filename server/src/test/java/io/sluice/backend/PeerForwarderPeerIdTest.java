package io.sluice.backend;

import io.sluice.config.ConfigLoader;
import io.sluice.config.ConfigSnapshot;
import io.sluice.testkit.ScratchDir;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** The peer_id a login's cancel key carries follows the configuration in force, reload after reload. */
class PeerForwarderPeerIdTest {

    @Test
    void peerIdFollowsEachNewConfiguration() throws Exception {
        ConfigSnapshot first = load("[pgbouncer]\npeer_id = 3\n");
        AtomicReference<ConfigSnapshot> current = new AtomicReference<>(first);
        PeerForwarder forwarder = new PeerForwarder(null, null, current::get);

        assertThat(forwarder.peerId()).isEqualTo(3);
        assertThat(forwarder.peerId()).isEqualTo(3);

        current.set(first.withSetting("peer_id", "7"));
        assertThat(forwarder.peerId()).isEqualTo(7);

        current.set(load("[pgbouncer]\n"));
        assertThat(forwarder.peerId()).isZero();

        current.set(first);
        assertThat(forwarder.peerId()).isEqualTo(3);
    }

    private static ConfigSnapshot load(String ini) throws Exception {
        Path dir = ScratchDir.create("peer-id");
        try {
            Files.writeString(dir.resolve("pgbouncer.ini"), ini);
            return ConfigLoader.load(Path.of("pgbouncer.ini"), dir);
        } finally {
            ScratchDir.delete(dir);
        }
    }
}
