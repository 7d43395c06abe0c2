package io.sluice.it;

import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RelaySmokeIT {
    @Test
    void psqlThroughSluice() throws Exception {
        PgCluster pg = PgCluster.shared();
        try (SluiceFixture s = SluiceFixture.start(pg,
                "postgres = host=127.0.0.1 port=$PGPORT dbname=postgres",
                "auth_type = trust\npool_mode = transaction\ndefault_pool_size = 5",
                "\"postgres\" \"\"\n")) {
            ProcessResult r = ProcessRunner.psql("127.0.0.1", s.port, "postgres", "postgres", null, "select 41+1");
            assertThat(r.stdout().trim()).isEqualTo("42");
        }
    }
}
