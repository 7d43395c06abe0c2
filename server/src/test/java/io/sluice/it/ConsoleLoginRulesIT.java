package io.sluice.it;

import io.sluice.testkit.PgBouncerProcess;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 15 (admin console with auth_type = trust): a name in admin_users or stats_users that
 * is not in auth_file does not get into the console; like PgBouncer, the lists are consulted
 * only for users that exist, and others go through a login that fails. Each user's answer is
 * compared with PgBouncer 1.18's under the same ini and auth file.
 */
class ConsoleLoginRulesIT {
    private static final String LISTS = "admin_users = postgres, ghostadmin\nstats_users = watcher, ghoststats\n";
    /** ghost*: listed but absent from auth_file; plain: in auth_file, in neither list; stranger: neither. */
    private static final List<String> USERS =
            List.of("ghostadmin", "ghoststats", "stranger", "pgbouncer", "plain", "postgres", "watcher");

    @ParameterizedTest
    @ValueSource(strings = {"trust", "md5"})
    void consoleAdmitsAndRefusesTheSameUsersAsPgBouncer(String authType) throws Exception {
        PgCluster pg = PgCluster.shared();
        String databases = "postgres = host=127.0.0.1 port=" + pg.port();
        String settings = "auth_type = " + authType + "\n" + LISTS;
        String users = "\"postgres\" \"pw\"\n\"watcher\" \"pw\"\n\"plain\" \"pw\"\n";
        Map<String, String> sluiceAnswers = new LinkedHashMap<>();
        try (SluiceFixture sluice = SluiceFixture.start(pg, databases, settings, users)) {
            for (String user : USERS) {
                sluiceAnswers.put(user, answer(sluice.port, user));
            }
        }
        System.out.println("console logins, auth_type " + authType + ", Sluice: " + sluiceAnswers);

        String failed = authType.equals("trust") ? "\"trust\" authentication failed" : "password authentication failed";
        for (String ghost : List.of("ghostadmin", "ghoststats", "stranger")) {
            assertThat(sluiceAnswers.get(ghost)).as(ghost + " is not in auth_file").startsWith(failed);
        }
        assertThat(sluiceAnswers.get("pgbouncer")).as("built-in user over TCP").isEqualTo("not allowed");
        assertThat(sluiceAnswers.get("plain")).as("in auth_file, in neither list").isEqualTo("not allowed");
        assertThat(sluiceAnswers.get("postgres")).isEqualTo("admitted");
        assertThat(sluiceAnswers.get("watcher")).isEqualTo("admitted");

        if (PgBouncerProcess.available()) {
            Map<String, String> pgbAnswers = new LinkedHashMap<>();
            try (PgBouncerProcess pgb = PgBouncerProcess.start("[databases]\n" + databases + "\n[pgbouncer]\n"
                    + settings, users)) {
                for (String user : USERS) {
                    pgbAnswers.put(user, answer(pgb.port(), user));
                }
            }
            System.out.println("console logins, auth_type " + authType + ", PgBouncer " + PgBouncerProcess.version()
                    + ": " + pgbAnswers);
            for (String user : USERS) {
                assertThat(sluiceAnswers.get(user)).as(user).isEqualTo(pgbAnswers.get(user));
            }
        }
    }

    /** "admitted" when SHOW VERSION works, else the FATAL message the login got. */
    private static String answer(int port, String user) {
        ProcessResult r = ProcessRunner.psql("127.0.0.1", port, "pgbouncer", user, "pw", "show version");
        if (r.exitCode() == 0) {
            assertThat(r.out()).startsWith("PgBouncer ");
            return "admitted";
        }
        String err = r.stderr();
        int at = err.indexOf("FATAL:  ");
        assertThat(at).as("a FATAL error in: " + err).isNotNegative();
        return err.substring(at + "FATAL:  ".length()).strip();
    }
}
