package io.sluice.hosts;

import io.sluice.config.ReplicaChecks;
import io.sluice.config.ServerAddress;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The lag checks' state machine on virtual time, with answers the test makes up. */
class ReplicaMonitorTest {
    private static final ServerAddress P = new ServerAddress("10.0.0.1", 5432);
    private static final ServerAddress R1 = new ServerAddress("10.0.0.2", 5432);
    private static final ServerAddress R2 = new ServerAddress("10.0.0.3", 5432);
    private static final long SECOND = 1_000_000_000L;

    private long now;
    private int probes;
    private final Map<ServerAddress, ProbeResult> answers = new HashMap<>();
    private final List<String> left = new ArrayList<>();
    private final ReplicaMonitor monitor = new ReplicaMonitor((db, host, done) -> {
        probes++;
        done.accept(answers.get(host));
    }, (db, host) -> left.add(host.host()), () -> now, () -> 0L);

    private static ReplicaChecks checks(ReplicaChecks.Fallback fallback) {
        return new ReplicaChecks(Optional.of(Duration.ofSeconds(1)), Duration.ofSeconds(1), 2, 3, fallback);
    }

    private Map<String, ReplicaMonitor.Spec> spec(ReplicaChecks.Fallback fallback) {
        return Map.of("db", new ReplicaMonitor.Spec(List.of(P, R1, R2), checks(fallback)));
    }

    /** The primary's view: R1 and R2 with their replay_lag (null = caught up and idle) and bytes behind. */
    private void primarySees(Double r1Lag, long r1Bytes, Double r2Lag, long r2Bytes) {
        answers.put(P, new ProbeResult(null, false, null, null, "", List.of(
                new ProbeResult.Standby("10.0.0.2", "walreceiver", r1Lag, r1Bytes),
                new ProbeResult.Standby("10.0.0.3", "walreceiver", r2Lag, r2Bytes))));
    }

    private static ProbeResult replica(double ownLag) {
        return new ProbeResult(null, true, ownLag, 0L, "", List.of());
    }

    /** Runs one round: one interval later. */
    private void round(Map<String, ReplicaMonitor.Spec> spec) {
        monitor.tick(spec);
        now += SECOND;
    }

    private HostState state(ServerAddress a) {
        return monitor.hosts("db").stream().filter(h -> h.address().equals(a)).findFirst().orElseThrow().state();
    }

    @Test
    void aLaggingReplicaDrainsAfterFallChecksAndComesBackAfterRise() {
        var spec = spec(ReplicaChecks.Fallback.PRIMARY);
        answers.put(R1, replica(0));
        answers.put(R2, replica(0));
        primarySees(null, 0, 0.01, 4096);
        assertThat(monitor.inService("db", P)).as("before any check every host serves").isTrue();
        round(spec);
        assertThat(monitor.inService("db", P)).as("replicas known and up: reads stay off the primary").isFalse();
        assertThat(monitor.inService("db", R1)).isTrue();
        assertThat(left).as("the primary's servers drain").containsExactly("10.0.0.1");
        left.clear();

        primarySees(5.0, 80_000_000, 0.01, 0);
        round(spec);
        round(spec);
        assertThat(state(R1)).as("two bad checks of fall 3").isEqualTo(HostState.UP);
        assertThat(probes).isEqualTo(9);
        now -= SECOND / 2;
        monitor.tick(spec); // half an interval after the last round: no new one
        now += SECOND / 2;
        assertThat(probes).isEqualTo(9);
        round(spec);
        assertThat(state(R1)).isEqualTo(HostState.DRAINING);
        assertThat(left).containsExactly("10.0.0.2");
        assertThat(monitor.inService("db", R1)).isFalse();
        assertThat(monitor.inService("db", R2)).isTrue();

        primarySees(0.2, 0, 0.01, 0);
        round(spec);
        assertThat(state(R1)).as("one good check of rise 2").isEqualTo(HostState.DRAINING);
        round(spec);
        assertThat(state(R1)).isEqualTo(HostState.UP);
        assertThat(left).hasSize(1);
    }

    @Test
    void thePrimaryDrainsWhenAReplicaComesBackAfterServingAsFallback() {
        var spec = spec(ReplicaChecks.Fallback.PRIMARY);
        primarySees(9.0, 1, 9.0, 1);
        answers.put(R1, replica(9));
        answers.put(R2, replica(9));
        for (int i = 0; i < 3; i++) {
            round(spec);
        }
        assertThat(left).containsExactly("10.0.0.1", "10.0.0.2", "10.0.0.3");
        assertThat(monitor.inService("db", P)).isTrue();
        primarySees(0.1, 0, 9.0, 1);
        round(spec);
        round(spec);
        assertThat(monitor.inService("db", R1)).isTrue();
        assertThat(left).as("the primary's servers go back to writes only").endsWith("10.0.0.1");
    }

    @Test
    void secondsDecideNotBytesAndAQuietPrimaryIsNoLag() {
        var spec = spec(ReplicaChecks.Fallback.PRIMARY);
        // the seed's burst: 150 MB behind for well under a second
        primarySees(0.4, 150_000_000, null, 0);
        // R2: quiet primary, last transaction an hour old, but received == replayed
        answers.put(R1, replica(0));
        answers.put(R2, replica(0));
        for (int i = 0; i < 5; i++) {
            round(spec);
        }
        assertThat(state(R1)).isEqualTo(HostState.UP);
        assertThat(state(R2)).isEqualTo(HostState.UP);
        Check c = monitor.hosts("db").get(1).last();
        assertThat(c.lagSeconds()).isEqualTo(0.4);
        assertThat(c.lagBytes()).isEqualTo(150_000_000);
        assertThat(c.source()).isEqualTo("primary");
    }

    @Test
    void withoutTheirRowReplicasMeasureThemselvesAndNoReplicaLeftFallsBackByPolicy() {
        answers.put(P, new ProbeResult(null, false, null, null, "", List.of()));
        answers.put(R1, replica(30));
        answers.put(R2, ProbeResult.failed("connect failed"));
        var primary = spec(ReplicaChecks.Fallback.PRIMARY);
        for (int i = 0; i < 3; i++) {
            round(primary);
        }
        assertThat(state(R1)).isEqualTo(HostState.DRAINING);
        assertThat(monitor.hosts("db").get(1).last().source()).isEqualTo("replica");
        assertThat(state(R2)).isEqualTo(HostState.DOWN);
        assertThat(monitor.inService("db", P)).as("replica_fallback = primary").isTrue();
        monitor.tick(spec(ReplicaChecks.Fallback.ERROR));
        assertThat(monitor.inService("db", P)).as("replica_fallback = error").isFalse();
        assertThat(monitor.inService("db", R1)).isFalse();
    }
}
