package io.sluice.it;

import io.sluice.testkit.PgCluster;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Transaction pooling with one server and two clients that asked for different session
 * parameters at startup: each transaction sees its own client's values (Sluice replays them
 * with SET when a client lands on a server that has the other's), as PgBouncer does.
 */
class ParameterSyncIT {
    @Test
    void eachClientKeepsItsStartupParametersOnASharedServer() throws Exception {
        PgCluster pg = PgCluster.shared();
        try (SluiceFixture s = SluiceFixture.start(pg, "postgres = host=127.0.0.1 port=$PGPORT pool_size=1",
                "auth_type = trust\npool_mode = transaction", "\"postgres\" \"\"\n");
             RawClient a = new RawClient(s.port);
             RawClient b = new RawClient(s.port)) {
            a.send(RawClient.startup(Map.of("user", "postgres", "database", "postgres",
                    "application_name", "client-a", "DateStyle", "SQL, DMY", "TimeZone", "Asia/Tokyo")));
            assertThat(a.readUntilReadyOrError()).isNull();
            b.send(RawClient.startup(Map.of("user", "postgres", "database", "postgres",
                    "application_name", "client-b", "DateStyle", "ISO, MDY", "TimeZone", "UTC")));
            assertThat(b.readUntilReadyOrError()).isNull();
            for (int round = 0; round < 3; round++) {
                String pidA = a.queryOne("select pg_backend_pid()");
                assertThat(a.queryOne("select current_setting('application_name')")).isEqualTo("client-a");
                assertThat(a.queryOne("show DateStyle")).isEqualTo("SQL, DMY");
                assertThat(a.queryOne("show TimeZone")).isEqualTo("Asia/Tokyo");
                assertThat(b.queryOne("select pg_backend_pid()")).as("pool_size=1: the same backend").isEqualTo(pidA);
                assertThat(b.queryOne("select current_setting('application_name')")).isEqualTo("client-b");
                assertThat(b.queryOne("show DateStyle")).isEqualTo("ISO, MDY");
                assertThat(b.queryOne("show TimeZone")).isEqualTo("UTC");
            }
            // a SET inside a client's transaction-mode session follows that client too
            a.queryOne("set application_name = 'client-a2'");
            assertThat(b.queryOne("select current_setting('application_name')")).isEqualTo("client-b");
            assertThat(a.queryOne("select current_setting('application_name')")).isEqualTo("client-a2");
        }
    }
}
