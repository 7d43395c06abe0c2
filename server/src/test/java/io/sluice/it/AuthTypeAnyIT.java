package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.Encryption;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * auth_type = any, side by side with Debian's PgBouncer 1.18: any name logs in without a password
 * and becomes the database's forced user (in the log and in SHOW CLIENTS, as PgBouncer keeps no
 * other name); a database without a forced user, or one that does not exist, is a config error
 * logged before the client has a pool; a listed console user is the console's "pgbouncer".
 */
class AuthTypeAnyIT {
    @Test
    void anyNameLogsInAsTheForcedUserAndADatabaseWithoutOneIsAConfigError() throws Exception {
        PgCluster pg = PgCluster.shared();
        String forced = PgCluster.uniqueName("forced");
        pg.createUser(forced, "unused", Encryption.MD5);
        String ini = "[databases]\nwith_user = host=127.0.0.1 port=" + pg.port() + " dbname=postgres user=" + forced + " password=unused"
                + "\nwithout_user = host=127.0.0.1 port=" + pg.port() + " dbname=postgres\n"
                + "[pgbouncer]\nauth_type = any\nadmin_users = postgres\nlog_stats = 0\n"
                + "ignore_startup_parameters = extra_float_digits\n";
        Pooler.sameAnswers("auth_type = any", ini, "", p -> {
            List<String> out = new ArrayList<>();
            try (Connection c = p.connect("with_user", "whoever")) {
                out.add("current_user is the forced one: " + Queries.run(c, "select current_user").equals(forced));
                out.add("logged in as it: " + p.log().contains(" with_user/" + forced + "@127.0.0.1:"));
                out.add("login attempt names it: " + p.log().contains("login attempt: db=with_user user=" + forced + " "));
            }
            for (String db : List.of("without_user", "nosuch")) {
                try (Connection ignored = p.connect(db, "whoever")) {
                    out.add(db + ": served");
                } catch (SQLException e) {
                    out.add(db + ": " + e.getMessage().contains("bouncer config error"));
                }
            }
            Await.until(Duration.ofSeconds(10), () -> count(p.log(), "closing because: bouncer config error") == 2,
                    p + " logs both refusals");
            out.add("config error logged without a pool or user, twice: "
                    + count(p.log(), "(nodb)/(nouser)@127.0.0.1:") + " lines, "
                    + count(p.log(), "auth_type=any requires forced user") + " errors");
            out.add("no login attempt for them: " + !p.log().contains("login attempt: db=without_user")
                    + " " + !p.log().contains("login attempt: db=nosuch"));
            ProcessResult users = ProcessRunner.psql("127.0.0.1", p.port(), "pgbouncer", "postgres", null,
                    "show clients");
            out.add("admin user is the console's own: " + users.out().lines().anyMatch(l -> l.startsWith("C|pgbouncer|pgbouncer|"))
                    + " " + p.log().contains("login attempt: db=pgbouncer user=pgbouncer "));
            return out;
        }, "current_user is the forced one: true", "logged in as it: true", "login attempt names it: true",
                "without_user: true", "nosuch: true",
                "config error logged without a pool or user, twice: 6 lines, 2 errors",
                "no login attempt for them: true true", "admin user is the console's own: true true");
    }

    private static int count(String text, String needle) {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }
}
