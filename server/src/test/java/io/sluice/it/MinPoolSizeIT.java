package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.PgCluster;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * min_pool_size before any client arrives, as PgBouncer 1.25 does it: the pool of a
 * [databases] entry with a forced user is opened and filled at start, while an entry without
 * one waits for its first client (its pools are per user). Sluice only: Debian's PgBouncer 1.18
 * opens no server before a client comes (checked by hand: 0 backends after 3 s).
 */
class MinPoolSizeIT {
    @Test
    void aForcedUserDatabaseIsFilledToMinPoolSizeBeforeAnyClient() throws Exception {
        PgCluster pg = PgCluster.shared();
        String forced = PgCluster.uniqueName("minpool_forced");
        String perUser = PgCluster.uniqueName("minpool_users");
        pg.createDatabase(forced, PgCluster.SUPERUSER);
        pg.createDatabase(perUser, PgCluster.SUPERUSER);
        try (SluiceFixture s = SluiceFixture.start(pg,
                forced + " = host=127.0.0.1 port=$PGPORT user=postgres min_pool_size=2\n"
                        + perUser + " = host=127.0.0.1 port=$PGPORT min_pool_size=2\n",
                "auth_type = trust\npool_mode = transaction\ndefault_pool_size = 5\n", "\"postgres\" \"\"\n")) {
            Await.until(Duration.ofSeconds(15), () -> backends(forced) == 2, "min_pool_size servers of " + forced);
            assertThat(backends(perUser)).as("no forced user: nothing to open before a client").isZero();
            assertThat(s.server.clients().total()).as("no client was involved").isZero();
        }
    }

    private static int backends(String db) {
        return Integer.parseInt(PgCluster.shared().query("select count(*) from pg_stat_activity where datname = '"
                + db + "' and backend_type = 'client backend'").get(0).get(0));
    }
}
