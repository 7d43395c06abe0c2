package io.sluice.it;

import io.sluice.testkit.Jdbc;
import io.sluice.testkit.PgCluster;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 2, acceptance 5: session state lives for the session and is reset for the next client. */
class SessionModeIT {
    @Test
    void sessionStatePersistsThenIsReset() throws Exception {
        PgCluster pg = PgCluster.shared();
        Properties p = new Properties();
        try (SluiceFixture sluice = SluiceFixture.start(pg, "postgres = host=127.0.0.1 port=$PGPORT pool_size=1",
                "auth_type = trust\npool_mode = session\nignore_startup_parameters = extra_float_digits",
                "\"postgres\" \"\"\n")) {
            int firstPid;
            try (Connection c = Jdbc.connect("127.0.0.1", sluice.port, "postgres", "postgres", null, p);
                 Statement st = c.createStatement()) {
                st.execute("set work_mem = '7MB'");
                st.execute("create temp table t_session(x int)");
                st.execute("insert into t_session values (1)");
                st.execute("prepare q_session as select 42");
                c.setAutoCommit(false);
                st.execute("insert into t_session values (2)");
                c.commit();
                c.setAutoCommit(true);
                assertThat(one(st, "show work_mem")).isEqualTo("7MB");
                assertThat(one(st, "select count(*) from t_session")).isEqualTo("2");
                assertThat(one(st, "execute q_session")).isEqualTo("42");
                firstPid = Integer.parseInt(one(st, "select pg_backend_pid()"));
            }
            try (Connection c = Jdbc.connect("127.0.0.1", sluice.port, "postgres", "postgres", null, p);
                 Statement st = c.createStatement()) {
                assertThat(Integer.parseInt(one(st, "select pg_backend_pid()")))
                        .as("pool_size=1: the next client gets the same backend").isEqualTo(firstPid);
                assertThat(one(st, "show work_mem")).isNotEqualTo("7MB");
                assertThat(one(st, "select count(*) from pg_class where relname = 't_session'")).isEqualTo("0");
                assertThat(one(st, "select count(*) from pg_prepared_statements where name = 'q_session'"))
                        .isEqualTo("0");
            }
        }
    }

    static String one(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
