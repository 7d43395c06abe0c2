package io.sluice.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.testkit.Encryption;
import io.sluice.testkit.FreePorts;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ScratchDir;
import io.sluice.testkit.Userlist;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Acceptance 2: {@code check} against a real PostgreSQL with max_connections = 50 and three
 * pools of 20 reports the capacity error with the figures and a suggested max_db_connections;
 * and it compares auth-file secrets with the roles (md5 entry vs SCRAM role).
 */
class CheckCommandIT {
    private static PgCluster pg;

    @BeforeAll
    static void start() {
        pg = PgCluster.builder().config("max_connections = 50").passwordEncryption(Encryption.SCRAM).start();
        pg.createUser("app_scram", "pw1", Encryption.SCRAM);
        pg.createUser("app_md5", "pw2", Encryption.MD5);
    }

    @AfterAll
    static void stop() {
        if (pg != null) {
            pg.close();
        }
    }

    private record Run(int status, String out) {
    }

    private static Run check(String... args) {
        PrintStream old = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            int rc = Main.run(args);
            return new Run(rc, buf.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(old);
        }
    }

    private static Path config(String databases, String userlist) throws Exception {
        Path dir = ScratchDir.create("check");
        Files.writeString(dir.resolve("userlist.txt"), userlist);
        return Files.writeString(dir.resolve("sluice.ini"), "[databases]\n" + databases + "\n[pgbouncer]\n"
                + "listen_addr = 127.0.0.1\nlisten_port = " + FreePorts.next() + "\nunix_socket_dir = " + dir + "\n"
                + "auth_file = " + dir.resolve("userlist.txt") + "\npool_mode = transaction\n");
    }

    @Test
    void threePoolsOfTwentyExceedFiftyConnections() throws Exception {
        String host = "host=127.0.0.1 port=" + pg.port() + " dbname=postgres user=postgres pool_size=20";
        Path cfg = config("a = " + host + "\nb = " + host + "\nc = " + host + "\n", "\"postgres\" \"\"\n");

        Run r = check("check", "--config", cfg.toString());

        assertThat(r.status()).as(r.out()).isEqualTo(Main.ERRORS);
        int reserved = Integer.parseInt(pg.query("SHOW superuser_reserved_connections").get(0).get(0));
        int budget = 50 - reserved;
        int allowed = (int) Math.floor(0.8 * budget);
        assertThat(r.out()).contains("error: [capacity]")
                .contains("Σ pool_size = 60 (a: 20, b: 20, c: 20)")
                .contains("max_connections 50 − superuser_reserved_connections " + reserved + " = " + budget)
                .contains("80 % of which is " + allowed)
                .contains("max_db_connections (database a) = " + allowed * 20 / 60);
    }

    @Test
    void md5EntryForScramRoleIsAnError() throws Exception {
        String storedMd5 = pg.query("SELECT rolpassword FROM pg_authid WHERE rolname = 'app_md5'").get(0).get(0);
        String url = "postgres://postgres@127.0.0.1:" + pg.port() + "/postgres";
        Path cfg = config("app = host=127.0.0.1 port=" + pg.port() + " pool_size=5\n",
                Userlist.md5Entry("app_scram", "pw1") + Userlist.entry("app_md5", storedMd5));

        Run r = check("check", "--config", cfg.toString(), "--server", url, "--format", "json");

        assertThat(r.status()).as(r.out()).isEqualTo(Main.ERRORS);
        assertThat(r.out()).contains("\"key\": \"app_scram\"")
                .contains("auth file has an md5 secret but the role's password is stored as SCRAM")
                .contains("md5 secret works now, but password_encryption = scram-sha-256")
                .contains("\"errors\": 1");
    }

    @Test
    void fittingPoolsPassWithoutErrors() throws Exception {
        Path cfg = config("a = host=127.0.0.1 port=" + pg.port() + " dbname=postgres user=postgres pool_size=8\n",
                "\"postgres\" \"\"\n");

        Run r = check("check", "--config", cfg.toString());

        assertThat(r.out()).contains("fits: Σ pool_size = 8").doesNotContain("error:");
        assertThat(r.status()).as(r.out()).isIn(Main.OK, Main.WARNINGS);
    }
}
