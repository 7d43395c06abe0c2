package io.sluice.hosts;

import io.sluice.config.LoadBalanceHosts;
import io.sluice.config.ServerAddress;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/** PgBouncer's dns_connect() host choice, one counter per pool. */
class HostBalancerTest {
    private static final ServerAddress A = new ServerAddress("a", 1);
    private static final ServerAddress B = new ServerAddress("b", 2);
    private static final ServerAddress C = new ServerAddress("c", 3);
    private static final List<ServerAddress> HOSTS = List.of(A, B, C);
    private static final Predicate<ServerAddress> ALL = h -> true;

    private final HostBalancer<String> balancer = new HostBalancer<>();

    private List<ServerAddress> picks(String pool, LoadBalanceHosts mode, int n, Predicate<ServerAddress> ok) {
        List<ServerAddress> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(balancer.pick(pool, HOSTS, mode, ok).orElse(null));
        }
        return out;
    }

    @Test
    void roundRobinTakesTheNextHostForEachConnectPerPool() {
        assertThat(picks("p1", LoadBalanceHosts.ROUND_ROBIN, 4, ALL)).containsExactly(A, B, C, A);
        assertThat(picks("p2", LoadBalanceHosts.ROUND_ROBIN, 2, ALL)).as("a pool of its own").containsExactly(A, B);
    }

    @Test
    void disableStaysUntilAConnectFailsThenMovesOnEachAttemptUntilOneSucceeds() {
        assertThat(picks("p", LoadBalanceHosts.DISABLE, 2, ALL)).containsExactly(A, A);
        balancer.failed("p");
        assertThat(picks("p", LoadBalanceHosts.DISABLE, 2, ALL)).as("flag stays until a login works")
                .containsExactly(B, C);
        balancer.connected("p");
        assertThat(picks("p", LoadBalanceHosts.DISABLE, 2, ALL)).containsExactly(C, C);
    }

    @Test
    void hostsOutOfServiceAreSkippedAndNoneInServiceGivesNothing() {
        assertThat(picks("p", LoadBalanceHosts.ROUND_ROBIN, 3, h -> h != B)).containsExactly(A, C, A);
        assertThat(picks("q", LoadBalanceHosts.DISABLE, 2, h -> h != A)).containsExactly(B, B);
        assertThat(balancer.pick("p", HOSTS, LoadBalanceHosts.ROUND_ROBIN, h -> false)).isEmpty();
    }
}
