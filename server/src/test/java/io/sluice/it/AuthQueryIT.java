package io.sluice.it;

import io.sluice.testkit.Encryption;
import io.sluice.testkit.Jdbc;
import io.sluice.testkit.PgBouncerProcess;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessRunner;
import io.sluice.testkit.Userlist;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 13, acceptance 4: users missing from auth_file are found by auth_query through
 * PgBouncer's documented SECURITY DEFINER function pgbouncer.user_lookup, run as a
 * non-superuser auth_user: md5 and SCRAM secrets (SCRAM passed through to PostgreSQL), an
 * unknown user, a user without a password, a broken query, a password changed while Sluice
 * runs, per-database auth_user and auth_dbname, and the auth connection pooled. The plain
 * logins are compared with PgBouncer 1.18's.
 */
class AuthQueryIT {
    static final String LOOKUP = "SELECT uname, phash FROM pgbouncer.user_lookup($1)";
    static PgCluster pg;
    static String db;
    static String authUser;
    static String otherAuthUser;
    static String md5User;
    static String scramUser;
    static String noPassword;
    static SluiceFixture sluice;
    static PgBouncerProcess pgb;

    @BeforeAll
    static void start() throws Exception {
        pg = PgCluster.shared();
        db = PgCluster.uniqueName("aq");
        authUser = PgCluster.uniqueName("aq_auth");
        otherAuthUser = PgCluster.uniqueName("aq_auth2");
        md5User = PgCluster.uniqueName("aq_md5");
        scramUser = PgCluster.uniqueName("aq_scram");
        noPassword = PgCluster.uniqueName("aq_nopw");
        pg.createUser(authUser, "auth-pw", Encryption.MD5);
        pg.createUser(otherAuthUser, "auth-pw", Encryption.MD5);
        pg.createUser(md5User, "md5-pw", Encryption.MD5);
        pg.createUser(scramUser, "scram-pw", Encryption.SCRAM);
        pg.createUser(noPassword, null, Encryption.NONE);
        pg.createDatabase(db, PgCluster.SUPERUSER);
        // the function from PgBouncer's documentation, owned by the superuser
        pg.exec(db, """
                CREATE SCHEMA pgbouncer;
                CREATE OR REPLACE FUNCTION pgbouncer.user_lookup(in i_username text, out uname text, out phash text)
                RETURNS record AS $$
                BEGIN
                    SELECT rolname, CASE WHEN rolvaliduntil < now() THEN NULL ELSE rolpassword END
                    FROM pg_authid
                    WHERE rolname=i_username AND rolcanlogin
                    INTO uname, phash;
                    RETURN;
                END;
                $$ LANGUAGE plpgsql
                   SECURITY DEFINER
                   SET search_path = pg_catalog, pg_temp;
                REVOKE ALL ON FUNCTION pgbouncer.user_lookup(text) FROM public;
                """ + "GRANT USAGE ON SCHEMA pgbouncer TO " + authUser + ", " + otherAuthUser + ";\n"
                + "GRANT EXECUTE ON FUNCTION pgbouncer.user_lookup(text) TO " + authUser + ", " + otherAuthUser + ";\n");
        String server = "host=127.0.0.1 port=" + pg.port() + " dbname=" + db;
        String settings = "auth_type = md5\nauth_user = " + authUser + "\nauth_query = " + LOOKUP
                + "\npool_mode = session\nignore_startup_parameters = extra_float_digits\n";
        // only auth_user is in auth_file, with the password its own server login needs
        String userlist = Userlist.entry(authUser, "auth-pw") + Userlist.entry(otherAuthUser, "auth-pw");
        sluice = SluiceFixture.start(pg, String.join("\n",
                db + " = " + server,
                "aq_via = " + server + " auth_dbname=" + db,
                "aq_per = " + server + " auth_user=" + otherAuthUser,
                "aq_pw = " + server,
                "aq_rows = " + server + " auth_query='" + LOOKUP + " WHERE uname IS NOT NULL'",
                "aq_bad = " + server + " auth_query='SELECT uname, phash, 1 FROM pgbouncer.user_lookup($1)'"),
                settings, userlist);
        if (PgBouncerProcess.available()) {
            pgb = PgBouncerProcess.start("[databases]\n" + db + " = " + server + "\n[pgbouncer]\n" + settings, userlist);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (pgb != null) {
            pgb.close();
        }
        sluice.close();
    }

    static String psql(int port, String database, String user, String password) {
        return LoginAnswer.psql(ProcessRunner.psqlCommand("127.0.0.1", port, database, user, password, "select current_user"));
    }

    @Test
    void loginsAnswerAsPgBouncer() {
        Map<String, String[]> cases = new LinkedHashMap<>();
        cases.put("md5 secret", new String[] {md5User, "md5-pw", "ok " + md5User});
        cases.put("SCRAM secret, passed through", new String[] {scramUser, "scram-pw", "ok " + scramUser});
        cases.put("md5 secret, wrong password", new String[] {md5User, "nope", LoginAnswer.WRONG_PASSWORD});
        cases.put("SCRAM secret, wrong password", new String[] {scramUser, "nope", LoginAnswer.WRONG_PASSWORD});
        cases.put("user without a password", new String[] {noPassword, "anything", LoginAnswer.WRONG_PASSWORD});
        // the documented function returns a row with a NULL name for an unknown user, which
        // PgBouncer's code (whatever its documentation says) treats as an unusable answer
        cases.put("unknown user", new String[] {"aq_nobody", "x", "bouncer config error"});
        Map<String, String> sluiceAnswers = new LinkedHashMap<>();
        Map<String, String> pgbAnswers = new LinkedHashMap<>();
        cases.forEach((name, c) -> {
            sluiceAnswers.put(name, psql(sluice.port, db, c[0], c[1]));
            if (pgb != null) {
                pgbAnswers.put(name, psql(pgb.port(), db, c[0], c[1]));
            }
        });
        System.out.println("auth_query logins, Sluice: " + sluiceAnswers);
        cases.forEach((name, c) -> assertThat(sluiceAnswers.get(name)).as(name).isEqualTo(c[2]));
        if (pgb != null) {
            System.out.println("auth_query logins, PgBouncer " + PgBouncerProcess.version() + ": " + pgbAnswers);
            assertThat(sluiceAnswers).isEqualTo(pgbAnswers);
        }
    }

    @Test
    void aQueryWithoutRowsSaysNoSuchUser() {
        assertThat(psql(sluice.port, "aq_rows", "aq_nobody", "x")).isEqualTo("no such user");
        assertThat(psql(sluice.port, "aq_rows", md5User, currentMd5Password())).isEqualTo("ok " + md5User);
    }

    @Test
    void aBrokenQueryIsAConfigErrorAndOthersGoOn() throws Exception {
        try (Connection other = Jdbc.connect("127.0.0.1", sluice.port, db, md5User, currentMd5Password())) {
            assertThat(psql(sluice.port, "aq_bad", md5User, currentMd5Password())).isEqualTo("bouncer config error");
            assertThat(psql(sluice.port, "aq_bad", md5User, currentMd5Password())).isEqualTo("bouncer config error");
            assertThat(servers(authUser, "aq_bad")).as("each unusable answer closed its server, as PgBouncer does")
                    .isZero();
            assertThat(currentUser(other)).isEqualTo(md5User);
        }
    }

    /**
     * An unusable answer (here the documented function's NULL name for an unknown user) closes
     * the auth server with the reason as its "closing because" line, and the client, which has
     * no user until auth_query answers, is logged as "(nouser)".
     */
    @Test
    void anUnusableAnswerClosesTheAuthServerWithItsReason() throws Exception {
        String ini = "[databases]\n" + db + " = host=127.0.0.1 port=" + pg.port() + " dbname=" + db
                + "\n[pgbouncer]\nauth_type = md5\nauth_user = " + authUser + "\nauth_query = " + LOOKUP + "\n";
        Pooler.sameAnswers("auth_query without a user", ini, Userlist.entry(authUser, "auth-pw"), p -> {
            String answer = psql(p.port(), db, "aq_nobody", "x");
            io.sluice.testkit.Await.until(java.time.Duration.ofSeconds(10),
                    () -> p.log().contains("pooler error: bouncer config error"), p + " logging the refusal");
            List<String> out = new java.util.ArrayList<>(List.of(answer));
            p.log().lines().filter(l -> l.contains("closing because") && !l.contains("pause mode")
                            && !l.contains("client close request") && !l.contains("shutting down"))
                    .map(l -> l.replaceAll("^.*? (LOG|WARNING) ", "$1 ").replaceAll("[CS]-0x[0-9a-f]+", "X")
                            .replaceAll(":[0-9]{2,5} ", ":PORT ").replaceAll("age=[0-9]+s", "age=Ns")
                            .replace(db + "/", "DB/").replace(authUser, "AUTH"))
                    .forEach(out::add);
            return out;
        }, "bouncer config error",
                "LOG X: DB/AUTH@127.0.0.1:PORT closing because: auth_query response contained null user name (age=Ns)",
                "LOG X: DB/(nouser)@127.0.0.1:PORT closing because: bouncer config error (age=Ns)");
    }

    @Test
    void theAuthConnectionIsPooledPerAuthUserAndAuthDatabase() {
        for (int i = 0; i < 5; i++) {
            assertThat(psql(sluice.port, db, scramUser, currentScramPassword())).isEqualTo("ok " + scramUser);
            // auth_dbname names the aq database entry: its auth pool serves this one too
            assertThat(psql(sluice.port, "aq_via", scramUser, currentScramPassword())).isEqualTo("ok " + scramUser);
        }
        assertThat(servers(authUser, db)).as("one pooled auth connection for ten logins").isEqualTo(1);
        assertThat(servers(authUser, "aq_via")).as("auth_dbname: no auth pool of its own").isZero();
        assertThat(psql(sluice.port, "aq_per", md5User, currentMd5Password())).isEqualTo("ok " + md5User);
        assertThat(servers(otherAuthUser, "aq_per")).as("the per-database auth_user").isEqualTo(1);
        assertThat(servers(authUser, "aq_per")).isZero();
    }

    /**
     * Held connections keep the pool's server busy, so the next login needs a new server login,
     * which must use what the client just proved (the new md5 secret, the new SCRAM keys).
     */
    @Test
    void aPasswordChangedWhileSluiceRunsCountsFromTheNextLogin() throws Exception {
        for (String[] u : List.of(new String[] {md5User, "md5"}, new String[] {scramUser, "scram-sha-256"})) {
            String user = u[0];
            String old = user.equals(md5User) ? currentMd5Password() : currentScramPassword();
            String fresh = old + "-new";
            try (Connection held = Jdbc.connect("127.0.0.1", sluice.port, "aq_pw", user, old)) {
                pg.exec("SET password_encryption = '" + u[1] + "'; ALTER ROLE " + user + " PASSWORD '" + fresh + "'");
                setPassword(user, fresh);
                // PgBouncer's words: a failed SCRAM exchange reads "SASL authentication failed";
                // either way the SQLSTATE is PostgreSQL's 28P01
                String words = u[1].equals("md5") ? "password authentication failed" : "SASL authentication failed";
                assertThatThrownBy(() -> Jdbc.connect("127.0.0.1", sluice.port, "aq_pw", user, old))
                        .isInstanceOfSatisfying(SQLException.class, e -> {
                            assertThat(e.getMessage()).contains(words);
                            assertThat(e.getSQLState()).isEqualTo("28P01");
                        });
                try (Connection next = Jdbc.connect("127.0.0.1", sluice.port, "aq_pw", user, fresh)) {
                    assertThat(currentUser(next)).isEqualTo(user);
                    assertThat(servers(user, "aq_pw")).as("a second server, logged in with the new secret").isEqualTo(2);
                }
                assertThat(currentUser(held)).isEqualTo(user);
            }
        }
    }

    // the password test changes passwords; the other tests ask for the current ones
    private static final Map<String, String> passwords = new java.util.concurrent.ConcurrentHashMap<>();

    static synchronized String currentMd5Password() {
        return passwords.getOrDefault(md5User, "md5-pw");
    }

    static synchronized String currentScramPassword() {
        return passwords.getOrDefault(scramUser, "scram-pw");
    }

    static synchronized void setPassword(String user, String password) {
        passwords.put(user, password);
    }

    static String currentUser(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("select current_user")) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** Sluice's server connections of {@code user} (in {@code database}, or any when null), from SHOW SERVERS. */
    static int servers(String user, String database) {
        var r = ProcessRunner.psqlCommand(sluice.dir.toString(), sluice.port, "pgbouncer", "pgbouncer", null,
                "show servers").run().requireSuccess();
        return (int) r.out().lines().map(l -> l.split("\\|", -1))
                .filter(f -> f.length > 2 && f[1].equals(user) && (database == null || f[2].equals(database))).count();
    }
}
