package io.sluice.it;

import io.sluice.testkit.PgBouncerProcess;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 12 items 9 and 11: what a client's session parameters become on a pooled server. One
 * server for all clients (pool_size = 1, transaction pooling), so every client lands on the server
 * the previous one left behind.
 */
class ClientParametersIT {
    private static final String SETTINGS = "auth_type = trust\npool_mode = transaction\ndefault_pool_size = 1\n";

    private static String databases(PgCluster pg) {
        return "postgres = host=127.0.0.1 port=" + pg.port();
    }

    /**
     * Item 9: {@code -c name=value} and {@code --name=value} in {@code options} set tracked
     * parameters, kept across server switches; other names and other switches are refused with
     * PgBouncer 1.25's errors. Debian's PgBouncer 1.18 predates this and refuses any options (shown).
     */
    @Test
    void optionsStartupParameterIsReadAsPgBouncer125ReadsIt() throws Exception {
        PgCluster pg = PgCluster.shared();
        try (SluiceFixture sluice = SluiceFixture.start(pg, databases(pg), SETTINGS, "\"postgres\" \"\"\n")) {
            String tokyo = "-c timezone=Asia/Tokyo --datestyle=German,\\ DMY";
            assertThat(psql(sluice.port, tokyo, "show timezone")).isEqualTo("Asia/Tokyo");
            assertThat(psql(sluice.port, null, "show timezone")).as("the next client gets the default back")
                    .isEqualTo(psql(pg.port(), null, "show timezone"));
            assertThat(psql(sluice.port, tokyo, "select current_setting('timezone') || ' ' || current_setting('datestyle')"))
                    .isEqualTo("Asia/Tokyo German, DMY");
            assertThat(psql(sluice.port, "-c enable_seqscan=off", "select 1"))
                    .isEqualTo("FATAL:  unsupported startup parameter in options: enable_seqscan");
            assertThat(psql(sluice.port, "-d 3", "select 1")).isEqualTo("FATAL:  unsupported options startup"
                    + " parameter: only '-c config=val' and '--config=val' are allowed");
        }
        try (SluiceFixture sluice = SluiceFixture.start(pg, databases(pg),
                SETTINGS + "ignore_startup_parameters = options\n", "\"postgres\" \"\"\n")) {
            assertThat(psql(sluice.port, "-c enable_seqscan=off -c timezone=Asia/Tokyo",
                    "select current_setting('enable_seqscan') || ' ' || current_setting('timezone')"))
                    .as("ignored names dropped, tracked ones still applied").isEqualTo("on Asia/Tokyo");
        }
        if (PgBouncerProcess.available()) {
            try (PgBouncerProcess pgb = PgBouncerProcess.start("[databases]\n" + databases(pg) + "\n[pgbouncer]\n"
                    + SETTINGS, "\"postgres\" \"\"\n")) {
                String answer = psql(pgb.port(), "-c timezone=Asia/Tokyo", "show timezone");
                System.out.println("options through PgBouncer " + PgBouncerProcess.version() + ": " + answer);
                if (PgBouncerProcess.version().startsWith("1.18")) {
                    assertThat(answer).isEqualTo("FATAL:  unsupported startup parameter: options");
                }
            }
        }
    }

    /**
     * Item 11: a client that never set standard_conforming_strings or application_name gets the
     * pool's values back when it lands on a server another client changed, as PgBouncer 1.25
     * fills unset parameters from the server's first greeting.
     */
    @Test
    void serverSwitchRestoresStandardConformingStringsAndEmptyApplicationName() throws Exception {
        PgCluster pg = PgCluster.shared();
        Map<String, List<String>> seen = new LinkedHashMap<>();
        try (SluiceFixture sluice = SluiceFixture.start(pg, databases(pg), SETTINGS, "\"postgres\" \"\"\n")) {
            seen.put("Sluice", restoreScenario(sluice.port));
        }
        if (PgBouncerProcess.available()) {
            try (PgBouncerProcess pgb = PgBouncerProcess.start("[databases]\n" + databases(pg) + "\n[pgbouncer]\n"
                    + SETTINGS, "\"postgres\" \"\"\n")) {
                seen.put("PgBouncer " + PgBouncerProcess.version(), restoreScenario(pgb.port()));
            }
        }
        System.out.println("parameters the plain client sees after the changer: " + seen);
        assertThat(seen.get("Sluice")).containsExactly("on", "", "off", "changer", "on", "");
        seen.forEach((pooler, answers) -> {
            if (pooler.startsWith("PgBouncer 1.18")) {
                // 1.18 already restores standard_conforming_strings; it skipped empty values, which
                // PgBouncer 1.25 (and Sluice) set back too, so its plain client keeps "changer"
                assertThat(List.of(answers.get(0), answers.get(2), answers.get(4))).containsExactly("on", "off", "on");
            }
        });
    }

    /**
     * One client changes both parameters with SET; a plain one (no application_name in its startup
     * packet) then reads them on the same server; then each reads again. Returns the six answers.
     */
    private static List<String> restoreScenario(int port) throws Exception {
        List<String> out = new ArrayList<>();
        try (RawClient changer = login(port); RawClient plain = login(port)) {
            changer.queryOne("set standard_conforming_strings = off");
            changer.queryOne("set application_name = 'changer'");
            out.add(plain.queryOne("show standard_conforming_strings"));
            out.add(plain.queryOne("show application_name"));
            out.add(changer.queryOne("show standard_conforming_strings"));
            out.add(changer.queryOne("show application_name"));
            out.add(plain.queryOne("show standard_conforming_strings"));
            out.add(plain.queryOne("show application_name"));
        }
        return out;
    }

    private static RawClient login(int port) throws Exception {
        RawClient c = new RawClient(port);
        c.send(RawClient.startup(Map.of("user", "postgres", "database", "postgres")));
        assertThat(c.readUntilReadyOrError()).isNull();
        return c;
    }

    /** psql's single output line, or its FATAL line when the login was refused. */
    private static String psql(int port, String options, String sql) {
        ProcessResult r = ProcessRunner.psqlCommand("127.0.0.1", port, "postgres", "postgres", null, sql)
                .env("PGOPTIONS", options).run();
        if (r.exitCode() == 0) {
            return r.out();
        }
        String err = r.stderr();
        int at = err.indexOf("FATAL:");
        assertThat(at).as(r.describe()).isNotNegative();
        return err.substring(at).strip();
    }
}
