package io.sluice.it;

import io.sluice.testkit.Encryption;
import io.sluice.testkit.PgBouncerProcess;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessRunner;
import io.sluice.testkit.Userlist;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 13, acceptance 3: auth_type = hba walks every line type (local, host, hostnossl, and
 * hostssl, which never matches without TLS) with every method (trust, reject, password, md5,
 * scram-sha-256, peer), a line that does not match its network or address family, a user no
 * line names, and peer over the unix socket from the right and the wrong Unix user. Each login
 * runs with psql against Sluice and PgBouncer 1.18 under the same ini, userlist and hba file,
 * and both must answer alike; pgjdbc repeats the TCP cases.
 */
class HbaIT {
    static final String[] METHODS = {"trust", "reject", "password", "md5", "scram-sha-256"};
    static final String PW = "hba-pw";

    static PgCluster pg;
    static Path files;
    static String hostDb;
    static String nosslDb;
    static String peerUser;
    static final Map<String, String> users = new LinkedHashMap<>();
    static String nomatch;
    static SluiceFixture sluice;
    static PgBouncerProcess pgb;

    @BeforeAll
    static void start() throws Exception {
        pg = PgCluster.shared();
        hostDb = PgCluster.uniqueName("hba_host");
        nosslDb = PgCluster.uniqueName("hba_nossl");
        StringBuilder userlist = new StringBuilder();
        for (String m : METHODS) {
            String u = PgCluster.uniqueName("hba_" + m.replace("-", ""));
            users.put(m, u);
            pg.createUser(u, PW, m.equals("scram-sha-256") ? Encryption.SCRAM : Encryption.MD5);
            String secret = switch (m) {
                case "scram-sha-256" -> pg.query("select rolpassword from pg_authid where rolname = '" + u + "'").get(0).get(0);
                case "md5", "password" -> Userlist.md5Secret(u, PW);
                default -> PW; // trust and reject: the server login needs the password itself
            };
            userlist.append(Userlist.entry(u, secret));
        }
        nomatch = PgCluster.uniqueName("hba_nomatch");
        pg.createUser(nomatch, PW, Encryption.MD5);
        userlist.append(Userlist.entry(nomatch, PW));
        // peer: the Unix user psql runs as must be the database user
        peerUser = ProcessRunner.serviceUserName();
        if (!peerUser.equals(PgCluster.SUPERUSER)) {
            pg.createUser(peerUser, PW, Encryption.MD5);
        }
        userlist.append(Userlist.entry(peerUser, PW));
        for (String db : List.of(hostDb, nosslDb)) {
            pg.createDatabase(db, PgCluster.SUPERUSER);
        }

        files = Files.createTempDirectory(Path.of("/tmp"), "sluice-hba-");
        Files.setPosixFilePermissions(files, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path hba = files.resolve("hba.conf");
        Files.writeString(hba, hbaText());
        Files.setPosixFilePermissions(hba, PosixFilePermissions.fromString("rw-r--r--"));

        String databases = hostDb + " = host=127.0.0.1 port=" + pg.port() + "\n"
                + nosslDb + " = host=127.0.0.1 port=" + pg.port();
        String settings = "auth_type = hba\nauth_hba_file = " + hba + "\npool_mode = session\n"
                + "ignore_startup_parameters = extra_float_digits\n";
        sluice = SluiceFixture.start(pg, databases, settings, userlist.toString());
        if (PgBouncerProcess.available()) {
            pgb = PgBouncerProcess.start("[databases]\n" + databases + "\n[pgbouncer]\n" + settings, userlist.toString());
        }
    }

    /** One block of lines per TCP type, each behind a hostssl line that would let everyone in. */
    static String hbaText() {
        StringBuilder t = new StringBuilder("# written by HbaIT\n");
        for (String m : METHODS) {
            t.append("local all ").append(users.get(m)).append(' ').append(m).append('\n');
        }
        t.append("local all ").append(peerUser).append(" peer\n");
        for (String[] block : new String[][] {{"host", hostDb}, {"hostnossl", nosslDb}}) {
            String type = block[0];
            String db = block[1];
            t.append("hostssl ").append(db).append(" all 127.0.0.1/32 trust\n");
            t.append(type).append(' ').append(db).append(' ').append(users.get("trust")).append(" 127.0.0.1/32 trust\n");
            t.append(type).append(' ').append(db).append(' ').append(users.get("reject"))
                    .append(" 127.0.0.1 255.255.255.255 reject\n");
            t.append(type).append(' ').append(db).append(' ').append(users.get("password")).append(" 127.0.0.0/8 password\n");
            t.append(type).append(' ').append(db).append(' ').append(users.get("md5")).append(" 10.0.0.0/8 trust\n");
            t.append(type).append(' ').append(db).append(' ').append(users.get("md5")).append(" 127.0.0.1/32 md5\n");
            t.append(type).append(' ').append(db).append(' ').append(users.get("scram-sha-256")).append(" ::1/128 trust\n");
            t.append(type).append(' ').append(db).append(' ').append(users.get("scram-sha-256"))
                    .append(" 127.0.0.1/32 scram-sha-256\n");
            t.append(type).append(' ').append(db).append(' ').append(peerUser).append(" 127.0.0.1/32 peer\n");
            t.append(type).append(' ').append(db).append(" hba_ghost 127.0.0.1/32 trust\n");
        }
        return t.toString();
    }

    @AfterAll
    static void stop() throws Exception {
        if (pgb != null) {
            pgb.close();
        }
        if (sluice != null) {
            sluice.close();
        }
        if (files != null) {
            for (Path p : List.of(files.resolve("hba.conf"), files)) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** One login: how, as whom, and what Sluice must answer. */
    record Case(String name, boolean socket, String db, String user, String password, boolean asService, String expect) {
    }

    static List<Case> cases() {
        List<Case> cs = new ArrayList<>();
        String wrong = LoginAnswer.WRONG_PASSWORD;
        String rejected = "login rejected";
        String peerRejected = "unix socket login rejected";
        String noLine = NO_LINE;
        // local lines
        cs.add(new Case("local trust", true, hostDb, users.get("trust"), "not-the-password", false, "ok " + users.get("trust")));
        cs.add(new Case("local reject", true, hostDb, users.get("reject"), PW, false, rejected));
        for (String m : List.of("password", "md5", "scram-sha-256")) {
            cs.add(new Case("local " + m, true, hostDb, users.get(m), PW, false, "ok " + users.get(m)));
            cs.add(new Case("local " + m + " wrong password", true, hostDb, users.get(m), "wrong", false, wrong));
        }
        cs.add(new Case("local peer, same Unix user", true, hostDb, peerUser, "", true, "ok " + peerUser));
        if (!System.getProperty("user.name").equals(peerUser)) {
            cs.add(new Case("local peer, another Unix user", true, hostDb, peerUser, "", false, peerRejected));
        }
        cs.add(new Case("local, no line for the user", true, hostDb, nomatch, PW, false, noLine));
        // TCP lines, once as host and once as hostnossl
        for (String db : List.of(hostDb, nosslDb)) {
            String type = db.equals(hostDb) ? "host" : "hostnossl";
            cs.add(new Case(type + " trust", false, db, users.get("trust"), "not-the-password", false, "ok " + users.get("trust")));
            cs.add(new Case(type + " reject (address and mask)", false, db, users.get("reject"), PW, false, rejected));
            for (String m : List.of("password", "md5", "scram-sha-256")) {
                cs.add(new Case(type + " " + m, false, db, users.get(m), PW, false, "ok " + users.get(m)));
                cs.add(new Case(type + " " + m + " wrong password", false, db, users.get(m), "wrong", false, wrong));
            }
            cs.add(new Case(type + " peer over TCP", false, db, peerUser, "", true, peerRejected));
            cs.add(new Case(type + " trust for an unknown user", false, db, "hba_ghost", PW, false,
                    "\"trust\" authentication failed"));
            cs.add(new Case(type + ", no line for the user", false, db, nomatch, PW, false, noLine));
        }
        return cs;
    }

    static String psql(Case c, int port, Path socketDir) {
        ProcessRunner r = ProcessRunner.psqlCommand(c.socket() ? socketDir.toString() : "127.0.0.1", port, c.db(), c.user(),
                c.password(), "select current_user");
        return LoginAnswer.psql(c.asService() ? r.asServiceUser() : r);
    }

    @Test
    void everyLineTypeAndMethodAnswersAsPgBouncer() {
        Map<String, String> sluiceAnswers = new LinkedHashMap<>();
        Map<String, String> pgbAnswers = new LinkedHashMap<>();
        for (Case c : cases()) {
            sluiceAnswers.put(c.name(), psql(c, sluice.port, sluice.dir));
            if (pgb != null) {
                pgbAnswers.put(c.name(), psql(c, pgb.port(), pgb.dir()));
            }
        }
        System.out.println("hba logins, Sluice: " + sluiceAnswers);
        for (Case c : cases()) {
            assertThat(sluiceAnswers.get(c.name())).as(c.name()).isEqualTo(c.expect());
        }
        if (pgb != null) {
            System.out.println("hba logins, PgBouncer " + PgBouncerProcess.version() + ": " + pgbAnswers);
            assertThat(asPgBouncer118(sluiceAnswers)).isEqualTo(pgbAnswers);
        }
    }

    /**
     * Sluice only (PgBouncer 1.18 has no auth_ident_file): peer through a map that lets this
     * JVM's Unix user be the peer database user; then RELOAD with another hba file takes
     * effect for the next login.
     */
    @Test
    void peerThroughAnIdentMapAndReload() throws Exception {
        String jvmUser = System.getProperty("user.name");
        Path hba = files.resolve("map.conf");
        Path ident = files.resolve("ident.conf");
        Files.writeString(ident, "ops " + jvmUser + " " + peerUser + "\n");
        Files.writeString(hba, "local all all peer map=ops\n");
        String settings = "auth_type = hba\nauth_hba_file = " + hba + "\nauth_ident_file = " + ident + "\n";
        try (SluiceFixture mapped = SluiceFixture.start(pg, hostDb + " = host=127.0.0.1 port=" + pg.port(), settings,
                Userlist.entry(peerUser, PW))) {
            Case viaMap = new Case("peer mapped", true, hostDb, peerUser, "", false, "ok " + peerUser);
            assertThat(psql(viaMap, mapped.port, mapped.dir)).isEqualTo("ok " + peerUser);
            if (!jvmUser.equals(peerUser)) {
                Case sameName = new Case("same name, not in the map", true, hostDb, peerUser, "", true, "");
                assertThat(psql(sameName, mapped.port, mapped.dir)).isEqualTo("unix socket login rejected");
            }
            Files.writeString(hba, "local all all reject\n");
            mapped.server.applyConfig(io.sluice.config.ConfigLoader.reload(mapped.server.routing().config(),
                    error -> { throw new AssertionError(error); }));
            assertThat(psql(viaMap, mapped.port, mapped.dir)).as("after RELOAD").isEqualTo("login rejected");
        } finally {
            Files.deleteIfExists(hba);
            Files.deleteIfExists(ident);
        }
    }

    @Test
    void pgjdbcGetsTheSameAnswersOverTcp() {
        for (Case c : cases()) {
            if (c.socket() || c.asService()) {
                continue;
            }
            String got = LoginAnswer.jdbc("127.0.0.1", sluice.port, c.db(), c.user(), c.password());
            String want = c.expect().startsWith("ok ") || c.expect().equals(LoginAnswer.WRONG_PASSWORD)
                    ? c.expect() : "08P01 " + c.expect();
            assertThat(got).as(c.name()).isEqualTo(want);
            if (pgb != null) {
                assertThat(asPgBouncer118(got)).as(c.name() + " vs PgBouncer")
                        .isEqualTo(LoginAnswer.jdbc("127.0.0.1", pgb.port(), c.db(), c.user(), c.password()));
            }
        }
    }

    /** 1.25's words when no line matches (finish_set_pool); 1.18 said "login rejected" there too. */
    static final String NO_LINE = "no authentication method is found";

    private static String asPgBouncer118(String answer) {
        return PgBouncerProcess.version().startsWith("1.18") ? answer.replace(NO_LINE, "login rejected") : answer;
    }

    private static Map<String, String> asPgBouncer118(Map<String, String> answers) {
        Map<String, String> out = new LinkedHashMap<>();
        answers.forEach((k, v) -> out.put(k, asPgBouncer118(v)));
        return out;
    }
}
