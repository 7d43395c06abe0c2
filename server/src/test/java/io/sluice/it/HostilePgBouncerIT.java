package io.sluice.it;

import io.sluice.testkit.PgBouncerProcess;
import io.sluice.testkit.PgCluster;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The pre-login part of the hostile-input catalogue ({@link HostileStartupCases}) run on Debian's
 * PgBouncer 1.18 with the outcomes Sluice must give: every case must get the same outcome there,
 * except the differences listed here with why Sluice differs on purpose; the same for the SCRAM
 * part ({@link HostileSaslCases}), but the case that crashes 1.18, and for the messages of a
 * logged-in client ({@link HostileMessageCases}).
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
        PgCluster.shared().exec("create database " + db);
        compare("pre-login", db, "auth_type = trust", "\"plain\" \"\"\n", HostileStartupCases.cases(), c -> { },
                DIFFERENCES);
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
            // a wrong proof is 28P01 (PostgreSQL's invalid_password, which drivers report as bad
            // credentials); PgBouncer sends 08P01 with the same words
            Map.entry("SASL: client-final with a wrong proof", "08P01"),
            Map.entry("SASL: client-final with an extension", "08P01"),
            Map.entry("SASL: client-final with bytes after the proof", "08P01"));

    @Test
    void saslCasesGetTheSameOutcomesOnPgBouncerSaveTheListedOnes() throws Exception {
        assumeTrue(PgBouncerProcess.available(), "PgBouncer is not installed");
        List<Hostile.Case> cases = HostileSaslCases.cases().stream().filter(c -> !c.name().contains("crashes PgBouncer")).toList();
        compare("SASL", "postgres", "auth_type = scram-sha-256", "\"sasl\" \"secret\"\n", cases, client -> {
            client.send(Hostile.startup(Map.of("user", "sasl", "database", "hostile")));
            assertThat(client.readMessage().type()).as("AuthenticationSASL").isEqualTo('R');
        }, SASL_DIFFERENCES);
    }

    /**
     * Message case name to what PgBouncer 1.18 does instead: it has no prepared statements and
     * passes a Parse or Bind it cannot read on to PostgreSQL, which answers "invalid string in
     * message" and goes on; 1.25 with max_prepared_statements (its default, and Sluice's) refuses
     * them with "failed to parse packet" (a named Parse cut short after its name with "broken Parse
     * packet"), as Sluice does.
     */
    static final Map<String, String> MESSAGE_DIFFERENCES = Map.ofEntries(
            Map.entry("Parse with an unterminated name", "PostgreSQL's 'invalid string in message', session goes on"),
            Map.entry("Bind with an unterminated portal name", "PostgreSQL's 'invalid string in message', session goes on"),
            Map.entry("Parse of a named statement without its text terminator",
                    "PostgreSQL's 'invalid string in message', session goes on"),
            Map.entry("Parse of a named statement counting 5 types, giving none",
                    "PostgreSQL's 'insufficient data left in message', session goes on"));

    @Test
    void messageCasesGetTheSameOutcomesOnPgBouncerSaveTheListedOnes() throws Exception {
        assumeTrue(PgBouncerProcess.available(), "PgBouncer is not installed");
        String db = PgCluster.uniqueName("hostile_msg");
        PgCluster.shared().exec("create database " + db);
        compare("message", db, "auth_type = trust\nmax_packet_size = 1048576", "\"plain\" \"\"\n",
                HostileMessageCases.cases(), client -> {
                    client.send(Hostile.startup(HostileStartupCases.LOGIN));
                    assertThat(client.readUntilReadyOrError()).isNull();
                }, MESSAGE_DIFFERENCES);
    }

    /**
     * Plays each case on a PgBouncer with the given auth settings, after {@code enter} brought the
     * client to the case's phase, and asserts that only the listed cases got another outcome.
     */
    private static void compare(String part, String db, String auth, String users, List<Hostile.Case> cases,
                                Hostile.Script enter, Map<String, String> differences) throws Exception {
        String ini = "[databases]\nhostile = host=127.0.0.1 port=" + PgCluster.shared().port() + " dbname=" + db
                + " user=postgres\n[pgbouncer]\n" + auth + "\npool_mode = transaction\nclient_login_timeout = 2\n";
        Map<String, String> differs = new LinkedHashMap<>();
        int same = 0;
        try (PgBouncerProcess pgb = PgBouncerProcess.start(ini, users)) {
            for (Hostile.Case c : cases) {
                try (RawClient client = new RawClient(pgb.port())) {
                    enter.run(client);
                    c.script().run(client);
                    Hostile.verify(client, c.expected());
                    same++;
                } catch (AssertionError | java.io.IOException e) {
                    differs.put(c.name(), String.valueOf(e.getMessage()).replace('\n', ' '));
                }
            }
        }
        System.out.println("PgBouncer " + PgBouncerProcess.version() + ": " + same + " " + part
                + " cases answered as Sluice does; different: " + differs);
        assertThat(same).as("cases answered alike").isPositive();
        assertThat(differs.keySet()).as(differs.toString()).isSubsetOf(differences.keySet());
    }
}
