package io.sluice.session;

import io.sluice.config.PoolMode;
import io.sluice.pool.PoolKey;
import io.sluice.proto.codec.ParameterStatuses;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The registry's counts behind max_db_client_connections and max_user_client_connections, and
 * its list of logins waiting for their pool's first server (SHOW POOLS cl_waiting).
 */
class ClientCountsTest {
    @Test
    void aClientCountsFromItsLoginUntilItLeavesAndACountBackAtZeroStartsAgain() {
        SessionHarness h = new SessionHarness(PoolMode.TRANSACTION);
        SessionHarness.ClientEnd second = h.newClient();
        assertThat(h.clients.clientsOfDatabase("db")).isEqualTo(2);
        assertThat(h.clients.clientsOfUser("u")).isEqualTo(2);
        assertThat(h.clients.clientsOfDatabase("other")).isZero();

        second.channel().close();
        assertThat(h.clients.clientsOfDatabase("db")).isEqualTo(1);
        assertThat(h.clients.clientsOfUser("u")).isEqualTo(1);

        h.client.close();
        assertThat(h.clients.clientsOfDatabase("db")).isZero();
        assertThat(h.clients.clientsOfUser("u")).isZero();
        assertThat(h.clients.countedNames()).as("names of clients gone are not kept").isZero();

        SessionHarness.ClientEnd third = h.newClient();
        assertThat(h.clients.clientsOfDatabase("db")).isEqualTo(1);
        assertThat(h.clients.clientsOfUser("u")).isEqualTo(1);
        third.channel().close();
        assertThat(h.clients.clientsOfDatabase("db")).isZero();
    }

    @Test
    void onlyALoginWithoutAGreetingWaitsForThePoolsFirstServer() {
        SessionHarness greeted = new SessionHarness(PoolMode.TRANSACTION);
        assertThat(greeted.clients.welcomeWaitSince(greeted.session)).isEmpty();

        SessionHarness.Config held = new SessionHarness.Config();
        held.holdWelcome = true;
        SessionHarness h = new SessionHarness(PoolMode.TRANSACTION, held);
        assertThat(h.clients.welcomeWaitSince(h.session)).isPresent();
        assertThat(h.clients.loggingIn()).as("a waiting login is not counted as logging in").isZero();
        assertThat(h.clients.waiting(new PoolKey("db", "u"))).as("cl_waiting counts it").isEqualTo(1);

        h.heldWelcome.welcome(ParameterStatuses.of(Map.of("server_version", "15.0")));
        assertThat(h.clients.welcomeWaitSince(h.session)).isEmpty();
        assertThat(h.session.state()).isEqualTo(ClientSession.State.IDLE);
    }
}
