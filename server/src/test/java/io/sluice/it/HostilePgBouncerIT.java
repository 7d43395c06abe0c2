package io.sluice.it;

import io.sluice.testkit.PgBouncerProcess;
import io.sluice.testkit.PgCluster;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The pre-login part of the hostile-input catalogue ({@link HostileStartupCases}) run on Debian's
 * PgBouncer 1.18 with the outcomes Sluice must give: every case must get the same outcome there,
 * except the differences listed here with why Sluice differs on purpose; the same for the SCRAM
 * part ({@link HostileSaslCases}), but the case that crashes 1.18.
 */
class HostilePgBouncerIT {
    /** Case name to what PgBouncer 1.18 does instead. */
    static final Map<String, String> DIFFERENCES = Map.ofEntries(
            Map.entry("options that are not -c", "1.18 takes no options: 'unsupported startup parameter: options'"),
            // PgBouncer wants a startup packet whole in one read ("partial pkt"); Sluice, like
            // PostgreSQL, waits for the rest within client_login_timeout, so a slow link still logs in
            Map.entry("startup length longer than what is sent, then silence", "'client sent partial pkt'"),
            Map.entry("startup packet a byte every 10 ms", "'client sent partial pkt in startup phase'"),
            Map.entry("startup packet a byte every 150 ms", "'client sent partial pkt in startup phase'"));

    @Test
    void pgBouncerGivesTheSameOutcomesSaveTheListedOnes() throws Exception {
        assumeTrue(PgBouncerProcess.available(), "PgBouncer is not installed");
        String db = PgCluster.uniqueName("hostile_pgb");
        PgCluster pg = PgCluster.shared();
        pg.exec("create database " + db);
        String ini = "[databases]\nhostile = host=127.0.0.1 port=" + pg.port() + " dbname=" + db + " user=postgres\n"
                + "[pgbouncer]\nauth_type = trust\npool_mode = transaction\nclient_login_timeout = 2\n";
        Map<String, String> differs = new LinkedHashMap<>();
        int same = 0;
        try (PgBouncerProcess pgb = PgBouncerProcess.start(ini, "\"plain\" \"\"\n")) {
            for (Hostile.Case c : HostileStartupCases.cases()) {
                try (RawClient client = new RawClient(pgb.port())) {
                    c.script().run(client);
                    Hostile.verify(client, c.expected());
                    same++;
                } catch (AssertionError | java.io.IOException e) {
                    differs.put(c.name(), String.valueOf(e.getMessage()).replace('\n', ' '));
                }
            }
        }
        System.out.println("PgBouncer " + PgBouncerProcess.version() + ": " + same + " pre-login cases answered as"
                + " Sluice does; different: " + differs);
        assertThat(differs.keySet()).as(differs.toString()).isSubsetOf(DIFFERENCES.keySet());
    }

    /** SASL case name to what PgBouncer 1.18 does instead. */
    static final Map<String, String> SASL_DIFFERENCES = Map.ofEntries(
            // 1.18 returns without an answer on a SASLInitialResponse it cannot read, and the client
            // waits for client_login_timeout; Sluice refuses at once in PostgreSQL's words
            Map.entry("SASL: mechanism unterminated", "client_login_timeout"),
            Map.entry("SASL: no data length", "client_login_timeout"),
            Map.entry("SASL: data length past the end", "client_login_timeout"),
            Map.entry("SASL: an empty message", "client_login_timeout"),
            // PgBouncer wants each login message whole in one read, as for the startup packet
            Map.entry("SASL: half a SASLInitialResponse, then silence", "'client sent partial pkt in startup phase'"),
            // PostgreSQL's words where PgBouncer has only its catch-all
            Map.entry("SASL: data length short of the end", "'SASL authentication failed'"),
            Map.entry("SASL: client-first with channel binding required", "'SASL authentication failed'"),
            Map.entry("SASL: a cleartext password instead", "reads the password as the mechanism's name: "
                    + "'client selected an invalid SASL authentication mechanism'"),
            // a wrong proof is 28P01 (PostgreSQL's invalid_password, which drivers report as bad
            // credentials); PgBouncer sends 08P01 with the same words
            Map.entry("SASL: client-final with a wrong proof", "08P01"),
            Map.entry("SASL: client-final with an extension", "08P01"),
            Map.entry("SASL: client-final with bytes after the proof", "08P01"));

    @Test
    void saslCasesGetTheSameOutcomesOnPgBouncerSaveTheListedOnes() throws Exception {
        assumeTrue(PgBouncerProcess.available(), "PgBouncer is not installed");
        PgCluster pg = PgCluster.shared();
        String ini = "[databases]\nhostile = host=127.0.0.1 port=" + pg.port() + " dbname=postgres user=postgres\n"
                + "[pgbouncer]\nauth_type = scram-sha-256\npool_mode = transaction\nclient_login_timeout = 2\n";
        Map<String, String> differs = new LinkedHashMap<>();
        int same = 0;
        try (PgBouncerProcess pgb = PgBouncerProcess.start(ini, "\"sasl\" \"secret\"\n")) {
            for (Hostile.Case c : HostileSaslCases.cases()) {
                if (c.name().contains("crashes PgBouncer")) {
                    continue;
                }
                try (RawClient client = new RawClient(pgb.port())) {
                    client.send(Hostile.startup(Map.of("user", "sasl", "database", "hostile")));
                    RawClient.Message m = client.readMessage();
                    assertThat(m.type()).isEqualTo('R');
                    c.script().run(client);
                    Hostile.verify(client, c.expected());
                    same++;
                } catch (AssertionError | java.io.IOException e) {
                    differs.put(c.name(), String.valueOf(e.getMessage()).replace('\n', ' '));
                }
            }
        }
        System.out.println("PgBouncer " + PgBouncerProcess.version() + ": " + same + " SASL cases answered as"
                + " Sluice does; different: " + differs);
        assertThat(same).as("cases answered alike").isPositive();
        assertThat(differs.keySet()).as(differs.toString()).isSubsetOf(SASL_DIFFERENCES.keySet());
    }
}
