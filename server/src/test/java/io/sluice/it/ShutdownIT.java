package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.Socket;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static io.sluice.it.PauseResumeIT.console;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * SHUTDOWN WAIT_FOR_CLIENTS and WAIT_FOR_SERVERS against a live Sluice: the listener closes at
 * once, the process stays up while a client (or a lent server) remains, and it exits when the
 * last one goes: the exit follows the departure, with no polling interval in between.
 */
class ShutdownIT {
    private static SluiceFixture start() throws Exception {
        PgCluster pg = PgCluster.shared();
        String db = PgCluster.uniqueName("shutdb");
        pg.createDatabase(db, PgCluster.SUPERUSER);
        return SluiceFixture.start(pg, db + " = host=127.0.0.1 port=$PGPORT",
                "auth_type = trust\npool_mode = transaction\ndefault_pool_size = 5\nadmin_users = postgres",
                "\"postgres\" \"\"\n");
    }

    private static Connection connect(SluiceFixture s) throws Exception {
        String db = s.server.routing().config().databases().keySet().iterator().next();
        return io.sluice.testkit.Jdbc.connect("127.0.0.1", s.port, db, "postgres", null);
    }

    private static boolean refuses(int port) {
        try (Socket ignored = new Socket("127.0.0.1", port)) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    private static void closeIfRunning(SluiceFixture s) throws Exception {
        if (!s.server.terminated().isDone()) {
            s.close();
        }
    }

    @Test
    void waitForClientsExitsWhenTheLastClientLeaves() throws Exception {
        SluiceFixture s = start();
        try {
            Connection c = connect(s);
            try (Statement st = c.createStatement()) {
                st.execute("select 1");
                ProcessResult r = console(s, "shutdown wait_for_clients");
                assertThat(r.exitCode()).as(r.describe()).isZero();
                Await.until(Duration.ofSeconds(10), () -> refuses(s.port), "listener closed");
                st.execute("select 2"); // a connected client carries on
                assertThat(s.server.terminated()).as("a client is still connected").isNotDone();
            }
            c.close();
            assertThat(s.server.terminated().get(10, TimeUnit.SECONDS)).isZero();
        } finally {
            closeIfRunning(s);
        }
    }

    @Test
    void waitForServersExitsWhenTheLastLentServerComesBack() throws Exception {
        SluiceFixture s = start();
        try (Connection c = connect(s); Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.execute("select 1"); // holds a server until commit
            ProcessResult r = console(s, "shutdown wait_for_servers");
            assertThat(r.exitCode()).as(r.describe()).isZero();
            Await.until(Duration.ofSeconds(10), () -> refuses(s.port), "listener closed");
            st.execute("select 2"); // the open transaction carries on
            assertThat(s.server.terminated()).as("a server is still lent out").isNotDone();
            c.commit();
            assertThat(s.server.terminated().get(10, TimeUnit.SECONDS)).isZero();
        } finally {
            closeIfRunning(s);
        }
    }
}
