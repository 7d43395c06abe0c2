package io.sluice.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.backend.ScramKeyCache;
import io.sluice.config.ConfigLoader;
import io.sluice.pool.PoolKey;
import io.sluice.session.RouteLookup;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where auth_query runs and with which secret the auth pool and auth_query users log in. */
class RoutingAuthTest {
    @TempDir
    Path dir;

    private Routing routing(String databases, String settings) throws Exception {
        Files.writeString(dir.resolve("userlist.txt"), "\"auth\" \"auth-pw\"\n\"forced\" \"forced-file-pw\"\n");
        Files.writeString(dir.resolve("pgbouncer.ini"), "[databases]\n" + databases + "\n[pgbouncer]\n"
                + "auth_file = userlist.txt\n" + settings + "\n");
        return new Routing(ConfigLoader.load(Path.of("pgbouncer.ini"), dir));
    }

    @Test
    void theDatabasesOwnKeysWinOverTheGlobalOnes() throws Exception {
        Routing r = routing("""
                app = host=127.0.0.1
                per = host=127.0.0.1 auth_user=other auth_query='SELECT 1, 2'
                via = host=127.0.0.1 auth_dbname=app
                * = host=127.0.0.1
                """, "auth_user = auth\nauth_query = SELECT a, b FROM f($1)");
        assertThat(r.authSource("app")).isEqualTo(new AuthSource(new PoolKey("app", "auth"), "SELECT a, b FROM f($1)", null));
        assertThat(r.authSource("per")).isEqualTo(new AuthSource(new PoolKey("per", "other"), "SELECT 1, 2", null));
        assertThat(r.authSource("via").pool()).isEqualTo(new PoolKey("app", "auth"));
        assertThat(r.authSource("anything").pool()).as("through the * entry").isEqualTo(new PoolKey("anything", "auth"));
    }

    @Test
    void withoutAnAuthUserNothingRuns() throws Exception {
        Routing r = routing("app = host=127.0.0.1\nper = host=127.0.0.1 auth_user=auth", "");
        assertThat(r.authSource("app").runs()).isFalse();
        assertThat(r.authSource("app").problem()).isNull();
        assertThat(r.authSource("per").runs()).isTrue();
        assertThat(r.authSource("missing").runs()).as("a database that does not exist").isFalse();
    }

    @Test
    void authTypeAnyServesOnlyDatabasesWithAForcedUserAndTheConsole() throws Exception {
        Routing r = routing("app = host=127.0.0.1 user=forced\nplain = host=127.0.0.1",
                "auth_type = any\n[users]\nforced = max_user_client_connections=3");
        assertThat(r.route("app", "whoever")).isInstanceOfSatisfying(RouteLookup.Pooled.class, p -> {
            assertThat(p.route().poolKey()).isEqualTo(new PoolKey("app", "forced"));
            assertThat(p.route().maxUserClientConnections()).as("the forced user's limit").isEqualTo(3);
        });
        RouteLookup.Misconfigured noForcedUser = new RouteLookup.Misconfigured("auth_type=any requires forced user");
        assertThat(r.route("plain", "whoever")).isEqualTo(noForcedUser);
        assertThat(r.route("missing", "whoever")).as("a database PgBouncer does not have").isEqualTo(noForcedUser);
        assertThat(r.route("pgbouncer", "whoever")).isInstanceOf(RouteLookup.Console.class);
    }

    @Test
    void aBadAuthDbnameIsAConfigProblem() throws Exception {
        Routing r = routing("app = host=127.0.0.1 auth_dbname=nowhere\ncon = host=127.0.0.1 auth_dbname=pgbouncer",
                "auth_user = auth");
        assertThat(r.authSource("app").problem()).isEqualTo("authentication database \"nowhere\" is not configured.");
        assertThat(r.authSource("con").problem())
                .isEqualTo("cannot use the reserved \"pgbouncer\" database as an auth_dbname");
    }

    @Test
    void serverLoginsUseAuthFileThenQueriedSecretsAndTheForcedPasswordOnlyForTheForcedUser() throws Exception {
        Routing r = routing("app = host=127.0.0.1 user=forced password=forced-pw", "auth_user = auth");
        ScramKeyCache keys = new ScramKeyCache();
        io.sluice.config.ServerAddress at = new io.sluice.config.ServerAddress("127.0.0.1", 5432);
        assertThat(r.target(new PoolKey("app", "forced"), at, keys, (d, u) -> null).credentials().password())
                .isEqualTo("forced-pw");
        assertThat(r.target(new PoolKey("app", "auth"), at, keys, (d, u) -> null).credentials().password())
                .as("the auth pool logs in as auth_user with its auth_file password").isEqualTo("auth-pw");
        assertThat(r.target(new PoolKey("app", "queried"), at, keys, (d, u) -> d + "/" + u + "-secret").credentials().password())
                .isEqualTo("app/queried-secret");
    }
}
