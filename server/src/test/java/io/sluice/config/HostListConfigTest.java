package io.sluice.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static io.sluice.config.TestConfigs.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Host and port lists (PgBouncer) and the replica lag keys (Sluice) of a [databases] entry. */
class HostListConfigTest {
    @TempDir
    Path dir;

    @Test
    void onePortServesEveryHostAndAListPairsUpWithTheHosts() throws Exception {
        ConfigSnapshot s = load(dir, """
                [pgbouncer]
                [databases]
                one = host=a,b port=6000
                two = host=a,b port=6000,6001
                sock = port=7000
                """);
        assertThat(s.databases().get("one").addresses())
                .containsExactly(new ServerAddress("a", 6000), new ServerAddress("b", 6000));
        assertThat(s.databases().get("two").addresses())
                .containsExactly(new ServerAddress("a", 6000), new ServerAddress("b", 6001));
        assertThat(s.databases().get("two").port()).as("SHOW DATABASES shows the first").isEqualTo(6000);
        assertThat(s.databases().get("sock").addresses()).containsExactly(new ServerAddress(null, 7000));
        assertThat(s.databases().get("one").replicaChecks().enabled()).isFalse();
    }

    @Test
    void aPortListOfAnotherLengthThanTheHostsIsRefused() {
        assertThatThrownBy(() -> load(dir, "[pgbouncer]\n[databases]\nx = host=a,b,c port=1,2\n"))
                .hasMessageContaining("number of ports (2) does not match number of hosts (3)");
    }

    @Test
    void replicaKeysTakeSecondsAndCounts() throws Exception {
        ConfigSnapshot s = load(dir, "[pgbouncer]\n[databases]\nr = host=p,r1 max_replica_lag=1.5 replica_check_interval=0.25"
                + " replica_rise=4 replica_fall=2 replica_fallback=error\n");
        ReplicaChecks c = s.databases().get("r").replicaChecks();
        assertThat(c).isEqualTo(new ReplicaChecks(java.util.Optional.of(Duration.ofMillis(1500)),
                Duration.ofMillis(250), 4, 2, ReplicaChecks.Fallback.ERROR));
        for (String bad : List.of("max_replica_lag=-1", "replica_check_interval=0", "replica_rise=0",
                "replica_fallback=nowhere", "max_replica_lag=1MB")) {
            assertThatThrownBy(() -> load(dir, "[pgbouncer]\n[databases]\nr = host=p " + bad + "\n")).as(bad)
                    .hasMessageContaining("invalid " + bad.substring(0, bad.indexOf('=')));
        }
    }
}
