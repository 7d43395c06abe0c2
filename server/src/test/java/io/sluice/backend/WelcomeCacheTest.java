package io.sluice.backend;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.pool.CheckoutFailure;
import io.sluice.pool.ConnectionLimit;
import io.sluice.pool.PoolEvents;
import io.sluice.pool.PoolKey;
import io.sluice.pool.ServerHandle;
import io.sluice.pool.fakes.FakeConnector;
import io.sluice.pool.fakes.Settings;
import io.sluice.pool.fakes.VirtualScheduler;
import io.sluice.pool.pressure.Pool;
import io.sluice.proto.codec.ParameterStatuses;
import io.sluice.util.Randomness;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * wait_for_welcome on the real pool engine (virtual time, fake connects): a login burst costs one
 * server login, the server goes back to the pool, later clients are answered from the cache, and
 * a failed login is not remembered.
 */
class WelcomeCacheTest {
    private static final PoolKey KEY = new PoolKey("db", "u");

    private final VirtualScheduler vt = new VirtualScheduler();
    private final FakeConnector connector = FakeConnector.manual(vt);
    private final Pool pool = new Pool(KEY, new Settings().build(), connector, PoolEvents.NONE,
            ConnectionLimit.unlimited("db"), ConnectionLimit.unlimited("u"), vt, vt, Randomness.seeded(1));
    private final List<Long> asked = new ArrayList<>();
    private final WelcomeCache cache = new WelcomeCache((key, waiter) -> pool.checkout(waiter),
            (ServerHandle h) -> {
                asked.add(h.id());
                return Map.of("server_version", "15.0", "TimeZone", "UTC");
            });

    private static final class Client implements WelcomeCache.Callback {
        Map<String, String> params;
        CheckoutFailure failure;

        @Override
        public void welcome(ParameterStatuses p) {
            params = p.params();
        }

        @Override
        public void failed(CheckoutFailure f) {
            failure = f;
        }
    }

    @Test
    void aBurstOfLoginsCostsOneServerLogin() {
        List<Client> burst = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            Client c = new Client();
            burst.add(c);
            cache.request(KEY, c);
        }
        vt.runUntilIdle();
        assertThat(connector.attempts).isEqualTo(1);
        assertThat(burst).allMatch(c -> c.params == null);

        connector.completeNext();
        vt.runUntilIdle();

        assertThat(burst).allMatch(c -> c.params != null && c.params.get("TimeZone").equals("UTC"));
        assertThat(asked).hasSize(1);
        // the server went back: idle, not leased
        assertThat(pool.snapshot().svIdle()).isEqualTo(1);
        assertThat(pool.snapshot().svActive()).isZero();

        Client late = new Client();
        cache.request(KEY, late);
        assertThat(late.params).containsEntry("server_version", "15.0");
        assertThat(connector.attempts).isEqualTo(1);
        assertThat(asked).hasSize(1);
    }

    @Test
    void aFailedLoginFailsTheWaitersAndTheNextClientTriesAgain() {
        Client a = new Client();
        Client b = new Client();
        cache.request(KEY, a);
        cache.request(KEY, b);
        vt.runUntilIdle();

        connector.rejectNext("28P01", "password authentication failed");
        vt.runUntilIdle();

        assertThat(a.failure).isNotNull();
        assertThat(b.failure).isNotNull();
        assertThat(a.params).isNull();

        vt.advance(16 * Settings.S); // past server_login_retry, so the engine connects again
        Client c = new Client();
        cache.request(KEY, c);
        vt.runUntilIdle();
        assertThat(connector.attempts).isEqualTo(2);
        connector.completeNext();
        vt.runUntilIdle();
        assertThat(c.params).containsEntry("TimeZone", "UTC");
    }

    @Test
    void aForgottenDatabaseAsksAServerAgain() {
        Client first = new Client();
        cache.request(KEY, first);
        vt.runUntilIdle();
        connector.completeNext();
        vt.runUntilIdle();
        assertThat(first.params).isNotNull();

        cache.forget("other");
        Client same = new Client();
        cache.request(KEY, same);
        assertThat(same.params).as("another database's KILL leaves this pool's greeting").isNotNull();

        cache.forget("db");
        Client after = new Client();
        cache.request(KEY, after);
        vt.runUntilIdle();
        assertThat(after.params).isNotNull();
        assertThat(asked).as("learned from a server again, not from the cache").hasSize(2);
    }
}
