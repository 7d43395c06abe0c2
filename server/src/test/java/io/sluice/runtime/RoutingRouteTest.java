package io.sluice.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.config.ConfigLoader;
import io.sluice.config.PoolMode;
import io.sluice.pool.PoolKey;
import io.sluice.session.Route;
import io.sluice.session.RouteLookup;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A login's route: [users] over [databases] over [pgbouncer], as PgBouncer resolves it. */
class RoutingRouteTest {
    @TempDir
    Path dir;

    private Routing routing() throws Exception {
        Files.writeString(dir.resolve("pgbouncer.ini"), """
                [databases]
                app = host=127.0.0.1
                stm = host=127.0.0.1 pool_mode=statement max_db_client_connections=7
                forced = host=127.0.0.1 user=owner
                [users]
                alice = pool_mode=session query_timeout=3 idle_transaction_timeout=4 max_user_client_connections=9
                owner = transaction_timeout=5
                [pgbouncer]
                auth_type = trust
                pool_mode = transaction
                query_timeout = 11
                idle_transaction_timeout = 12
                client_idle_timeout = 13
                transaction_timeout = 14
                max_db_client_connections = 50
                max_user_client_connections = 60
                max_prepared_statements = 100
                server_reset_query = DISCARD ALL
                server_reset_query_always = 1
                """);
        return new Routing(ConfigLoader.load(Path.of("pgbouncer.ini"), dir));
    }

    private static Route pooled(RouteLookup r) {
        assertThat(r).isInstanceOf(RouteLookup.Pooled.class);
        return ((RouteLookup.Pooled) r).route();
    }

    private static long s(long seconds) {
        return TimeUnit.SECONDS.toNanos(seconds);
    }

    @Test
    void aUserWithoutAnEntryTakesTheGlobalSettings() throws Exception {
        Route r = pooled(routing().route("app", "bob"));
        assertThat(r.poolKey()).isEqualTo(new PoolKey("app", "bob"));
        assertThat(r.mode()).isEqualTo(PoolMode.TRANSACTION);
        assertThat(r.resetQuery()).isEqualTo("DISCARD ALL");
        assertThat(r.resetAlways()).isTrue();
        assertThat(new long[] {r.queryTimeout(), r.idleTransactionTimeout(), r.clientIdleTimeout(), r.transactionTimeout()})
                .containsExactly(s(11), s(12), s(13), s(14));
        assertThat(r.maxDbClientConnections()).isEqualTo(50);
        assertThat(r.maxUserClientConnections()).isEqualTo(60);
        assertThat(r.maxPreparedStatements()).isEqualTo(100);
    }

    @Test
    void theUsersEntryWinsKeyByKeyAndTheDatabasesEntryOverTheGlobal() throws Exception {
        Routing routing = routing();
        Route alice = pooled(routing.route("stm", "alice"));
        assertThat(alice.mode()).as("[users] pool_mode over the database's").isEqualTo(PoolMode.SESSION);
        assertThat(new long[] {alice.queryTimeout(), alice.idleTransactionTimeout(), alice.clientIdleTimeout()})
                .containsExactly(s(3), s(4), s(13));
        assertThat(alice.maxDbClientConnections()).isEqualTo(7);
        assertThat(alice.maxUserClientConnections()).isEqualTo(9);
        assertThat(pooled(routing.route("stm", "bob")).mode()).isEqualTo(PoolMode.STATEMENT);
    }

    @Test
    void aForcedUserNamesThePoolWhileTimeoutsFollowTheLoginUser() throws Exception {
        Route r = pooled(routing().route("forced", "alice"));
        assertThat(r.poolKey()).isEqualTo(new PoolKey("forced", "owner"));
        assertThat(r.queryTimeout()).isEqualTo(s(3));
        assertThat(r.transactionTimeout()).as("owner's transaction_timeout is not alice's").isEqualTo(s(14));
    }

    @Test
    void aPairsRouteIsResolvedOncePerSnapshotAndAgainInTheNext() throws Exception {
        Routing routing = routing();
        RouteLookup first = routing.route("app", "bob");
        assertThat(routing.route("app", "bob")).isSameAs(first);
        assertThat(routing.route("app", "carol")).isNotSameAs(first);
        assertThat(pooled(routing.route("stm", "bob")).mode()).as("same user, another database")
                .isEqualTo(PoolMode.STATEMENT);
        assertThat(pooled(routing.route("app", "carol")).poolKey()).isEqualTo(new PoolKey("app", "carol"));

        String ini = Files.readString(dir.resolve("pgbouncer.ini"));
        Files.writeString(dir.resolve("pgbouncer.ini"), ini.replace("pool_mode = transaction", "pool_mode = session"));
        Routing next = new Routing(ConfigLoader.load(Path.of("pgbouncer.ini"), dir));
        assertThat(pooled(next.route("app", "bob")).mode()).isEqualTo(PoolMode.SESSION);
        assertThat(pooled(routing.route("app", "bob")).mode()).as("the old snapshot keeps its answer")
                .isEqualTo(PoolMode.TRANSACTION);
    }

    @Test
    void pastTheBoundOfKeptRoutesEachLoginIsResolvedAndRefusalsAreNotKept() throws Exception {
        Routing routing = routing();
        for (int i = 0; i < Routing.ROUTES_KEPT; i++) {
            routing.route("app", "user" + i);
        }
        RouteLookup late = routing.route("stm", "alice");
        assertThat(pooled(late).mode()).isEqualTo(PoolMode.SESSION);
        assertThat(pooled(late).maxDbClientConnections()).isEqualTo(7);
        assertThat(routing.route("stm", "alice")).isNotSameAs(late).isEqualTo(late);
        Routing fresh = routing();
        assertThat(fresh.route("nowhere", "bob")).isNotSameAs(fresh.route("nowhere", "bob"));
    }

    @Test
    void theConsoleAndUnknownDatabases() throws Exception {
        Routing routing = routing();
        assertThat(routing.route("pgbouncer", "alice"))
                .isEqualTo(new RouteLookup.Console(50, 9));
        assertThat(routing.route("nowhere", "bob")).isInstanceOf(RouteLookup.Refused.class);
    }
}
