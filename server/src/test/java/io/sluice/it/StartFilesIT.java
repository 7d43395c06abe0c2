package io.sluice.it;

import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ScratchDir;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Side by side with PgBouncer: a config whose auth file has a broken line, or whose hba file has
 * a line that cannot be read, still starts; the users before the broken line log in and those
 * after do not, and the hba line is skipped (the next one decides), with the same log lines. A
 * RELOAD that finds the auth file gone succeeds, and the users read before still log in.
 */
class StartFilesIT {
    private static String ini(String settings) {
        return "[databases]\npostgres = host=127.0.0.1 port=" + PgCluster.shared().port() + " dbname=postgres\n"
                + "[pgbouncer]\n" + settings;
    }

    /** "ok" with a query's answer, or the login's error message. */
    private static String login(Pooler p, String user) throws Exception {
        try (RawClient c = new RawClient(p.port())) {
            c.send(RawClient.startup(Map.of("user", user, "database", "postgres")));
            Map<Character, String> refused = c.readUntilReadyOrError();
            return refused != null ? user + ": " + refused.get('M') : user + ": " + c.queryOne("select 1");
        }
    }

    @Test
    void aBrokenAuthFileLineKeepsTheUsersBeforeIt() throws Exception {
        String users = "\"postgres\" \"\"\nbob \"\"\n\"carol\" \"\"\n";
        Pooler.sameAnswers("broken auth file", ini("auth_type = trust\n"), users, p -> {
            List<String> out = new ArrayList<>();
            out.add(login(p, "postgres"));
            out.add(login(p, "carol"));
            out.add("logged: " + p.log().contains("broken auth file"));
            return out;
        }, "postgres: 1", "carol: \"trust\" authentication failed", "logged: true");
    }

    @Test
    void anHbaLineThatCannotBeReadIsSkipped() throws Exception {
        Path dir = ScratchDir.create("hba");
        try {
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
            Path hba = dir.resolve("hba.conf");
            Files.writeString(hba, "host all all 127.0.0.1/32 bogus\nhost all all 0.0.0.0/0 trust\n");
            Files.setPosixFilePermissions(hba, PosixFilePermissions.fromString("rw-r--r--"));
            Pooler.sameAnswers("hba line skipped", ini("auth_type = hba\nauth_hba_file = " + hba + "\n"),
                    "\"postgres\" \"\"\n", p -> List.of(login(p, "postgres"),
                            "logged: " + p.log().contains("could not parse hba config line 1")),
                    "postgres: 1", "logged: true");
        } finally {
            ScratchDir.delete(dir);
        }
    }

    @Test
    void aReloadThatFindsTheAuthFileGoneKeepsItsUsers() throws Exception {
        Pooler.sameAnswers("auth file gone at RELOAD", ini("auth_type = trust\nadmin_users = postgres\n"),
                "\"postgres\" \"\"\n", p -> {
                    Files.delete(p.dir().resolve("userlist.txt"));
                    List<String> out = new ArrayList<>();
                    try (RawClient c = new RawClient(p.port())) {
                        c.send(RawClient.startup(Map.of("user", "postgres", "database", "pgbouncer")));
                        c.readUntilReadyOrError();
                        Map<Character, String> error = c.readAfter("RELOAD");
                        out.add("RELOAD: " + (error == null ? "ok" : error.get('M')));
                    }
                    out.add(login(p, "postgres"));
                    out.add("logged: " + p.log().contains("could not open auth_file"));
                    return out;
                }, "RELOAD: ok", "postgres: 1", "logged: true");
    }
}
