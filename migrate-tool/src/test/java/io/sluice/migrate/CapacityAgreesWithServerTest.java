package io.sluice.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.config.ConfigLoader;
import io.sluice.config.ConfigSnapshot;
import io.sluice.config.PoolSizing;
import io.sluice.pool.PoolKey;
import io.sluice.pool.PoolSettings;
import io.sluice.runtime.Routing;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sluice-migrate's capacity figures are the pooler's own: for a config with [users] and
 * [databases] overrides of pool_size and reserve_pool_size, every pool the check counts has the
 * pool_size, reserve and max_db_connections the server gives that pool. (The check used to take
 * the reserve from [databases]/global only, while the server lets [users] override it.)
 */
class CapacityAgreesWithServerTest {
    @TempDir
    Path dir;

    private record Numbers(int poolSize, int reserve, int maxDb) {
    }

    @Test
    void migrateToolCountsWhatTheServerOpens() throws Exception {
        Files.writeString(dir.resolve("userlist.txt"), "\"alice\" \"a\"\n\"bob\" \"b\"\n\"carol\" \"c\"\n");
        Path ini = Files.writeString(dir.resolve("sluice.ini"), "[databases]\n"
                + "app = host=127.0.0.1 pool_size=10 reserve_pool=4 max_db_connections=0\n"
                + "billing = host=127.0.0.1 user=carol\n"
                + "[users]\nalice = pool_size=7 reserve_pool_size=1\ncarol = reserve_pool_size=5\n"
                + "[pgbouncer]\ndefault_pool_size = 20\nreserve_pool_size = 2\nmax_db_connections = 60\n"
                + "auth_file = " + dir.resolve("userlist.txt") + "\n");
        ConfigSnapshot snap = ConfigLoader.load(ini, dir);
        Routing server = new Routing(snap);
        Map<String, List<String>> poolUsers = Map.of("app", List.of("alice", "bob", "carol"), "billing",
                List.of("carol"));

        List<PoolDemand> demand = PoolDemand.of(snap, Set.of("alice", "bob", "carol"));

        assertThat(demand).hasSize(2);
        for (PoolDemand d : demand) {
            List<Numbers> fromServer = new ArrayList<>();
            for (String user : poolUsers.get(d.database())) {
                PoolSettings s = server.poolSettings(new PoolKey(d.database(), user));
                fromServer.add(new Numbers(s.poolSize(), s.reservePoolSize(), s.maxDbConnections()));
            }
            List<Numbers> fromMigrate = new ArrayList<>();
            for (PoolSizing p : d.sizing()) {
                fromMigrate.add(new Numbers(p.poolSize(), p.reservePoolSize(), d.maxDb()));
            }
            assertThat(fromMigrate).as(d.database()).containsExactlyInAnyOrderElementsOf(fromServer);
        }
        // the figures themselves, so a shared mistake would not pass either:
        // app: alice 7 (+1), bob 10 (+4), carol 10 (+5 from [users]); max_db_connections=0 inherits 60
        PoolDemand app = demand.get(0);
        assertThat(app.poolSizes()).containsExactly(7, 10, 10);
        assertThat(app.reserves()).containsExactlyInAnyOrder(1, 4, 5);
        assertThat(app.maxDb()).isEqualTo(60);
        assertThat(app.ceiling()).isEqualTo(27);
        PoolDemand billing = demand.get(1);
        assertThat(billing.poolSizes()).containsExactly(20);
        assertThat(billing.reserves()).containsExactly(5);
    }
}
