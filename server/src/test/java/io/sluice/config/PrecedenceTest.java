package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** PgBouncer 1.25's [users] &gt; [databases] &gt; [pgbouncer] rules, including what counts as "not set". */
class PrecedenceTest {
    @TempDir
    Path dir;

    private ConfigSnapshot load(String text) throws ConfigException {
        return TestConfigs.load(dir, text);
    }

    private static final String GLOBAL = "[pgbouncer]\ndefault_pool_size = 20\nmin_pool_size = 2\nreserve_pool_size = 3\n"
            + "max_db_connections = 50\nmax_user_connections = 40\nmax_db_client_connections = 70\n"
            + "max_user_client_connections = 60\nserver_lifetime = 3600\npool_mode = session\n";

    @Test
    void userBeatsDatabaseBeatsGlobal() throws Exception {
        ConfigSnapshot c = load(GLOBAL + "[databases]\napp = pool_size=10 reserve_pool=4 pool_mode=transaction "
                + "min_pool_size=5 max_db_connections=30 server_lifetime=60\n"
                + "[users]\nalice = pool_size=7 reserve_pool_size=1 pool_mode=statement max_user_connections=9\n");
        DatabaseEntry app = c.databases().get("app");

        PoolSizing alice = c.precedence().pool(app, "alice");
        assertThat(alice).isEqualTo(new PoolSizing(PoolMode.STATEMENT, 7, 5, 1, Duration.ofSeconds(60), 30, 9));

        PoolSizing bob = c.precedence().pool(app, "bob");
        assertThat(bob).isEqualTo(new PoolSizing(PoolMode.TRANSACTION, 10, 5, 4, Duration.ofSeconds(60), 30, 40));

        PoolSizing nobody = c.precedence().pool(app, null);
        assertThat(nobody).isEqualTo(bob);
    }

    @Test
    void absentEverywhereMeansGlobal() throws Exception {
        ConfigSnapshot c = load(GLOBAL + "[databases]\napp = host=127.0.0.1\n");
        PoolSizing p = c.precedence().pool(c.databases().get("app"), "bob");
        assertThat(p).isEqualTo(new PoolSizing(PoolMode.SESSION, 20, 2, 3, Duration.ofSeconds(3600), 50, 40));
        assertThat(c.precedence().maxDbClientConnections(c.databases().get("app"))).isEqualTo(70);
        assertThat(c.precedence().maxUserClientConnections("bob")).isEqualTo(60);
    }

    @Test
    void negativeSizesAndZeroCapsInheritAsInPgBouncer() throws Exception {
        ConfigSnapshot c = load(GLOBAL + "[databases]\napp = pool_size=-1 min_pool_size=-1 reserve_pool=-1 "
                + "max_db_connections=0 max_db_client_connections=0 server_lifetime=0\n"
                + "[users]\nalice = pool_size=-1 reserve_pool_size=-1 max_user_connections=0 "
                + "max_user_client_connections=0\n");
        DatabaseEntry app = c.databases().get("app");
        Precedence rules = c.precedence();

        assertThat(rules.pool(app, "alice"))
                .isEqualTo(new PoolSizing(PoolMode.SESSION, 20, 2, 3, Duration.ofSeconds(3600), 50, 40));
        assertThat(rules.maxDbClientConnections(app)).isEqualTo(70);
        assertThat(rules.maxUserClientConnections("alice")).isEqualTo(60);
    }

    @Test
    void zeroSizesAreValuesNotInheritance() throws Exception {
        ConfigSnapshot c = load(GLOBAL + "[databases]\napp = pool_size=0 reserve_pool=0 min_pool_size=0\n"
                + "[users]\nalice = pool_size=0\n");
        DatabaseEntry app = c.databases().get("app");
        assertThat(c.precedence().poolSize(app)).isZero();
        assertThat(c.precedence().reservePoolSize(app)).isZero();
        assertThat(c.precedence().minPoolSize(app)).isZero();
        assertThat(c.precedence().pool(app, "alice").poolSize()).isZero();
    }

    @Test
    void databaseLevelValuesIgnoreUsers() throws Exception {
        ConfigSnapshot c = load(GLOBAL + "[databases]\napp = reserve_pool=4\n[users]\nalice = pool_size=7\n");
        DatabaseEntry app = c.databases().get("app");
        // SHOW DATABASES prints the entry's values, whatever [users] says
        assertThat(c.precedence().poolSize(app)).isEqualTo(20);
        assertThat(c.precedence().reservePoolSize(app)).isEqualTo(4);
    }
}
