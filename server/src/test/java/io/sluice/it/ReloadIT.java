package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * RELOAD and SIGHUP on Sluice and on Debian's PgBouncer 1.18, each started from the same
 * pgbouncer.ini, with what clients and the log show compared: a database removed from the file
 * drops its clients at once ("database removed") while the others carry on; a file that does
 * not load changes nothing and the log says why; a database whose target changed keeps a
 * running transaction on its old server and sends everything after it to the new target.
 */
class ReloadIT {
    private static final String USERS = "\"postgres\" \"\"\n";

    private static String ini(String databases) {
        return "[databases]\n" + databases + "[pgbouncer]\nauth_type = trust\npool_mode = transaction\n"
                + "default_pool_size = 4\nadmin_users = postgres\nlog_stats = 0\n"
                + "ignore_startup_parameters = extra_float_digits\n";
    }

    private static String entry(String name, String dbname) {
        return name + " = host=127.0.0.1 port=" + PgCluster.shared().port() + " dbname=" + dbname + "\n";
    }

    /** How a client outcome reads on either pooler: the words that matter, not the driver's framing. */
    private static String gist(String outcome) {
        for (String words : List.of("database removed", "no such database: gone")) {
            if (outcome.contains(words)) {
                return words;
            }
        }
        return outcome;
    }

    private static ProcessResult console(Pooler p, String command) {
        return ProcessRunner.psql("127.0.0.1", p.port(), "pgbouncer", "postgres", null, command);
    }

    @Test
    void sighupThatRemovesADatabaseInUseDropsItsClientsAtOnceAndKeepsTheOthers() throws Exception {
        List<Pooler> poolers = Pooler.both(ini(entry("keep", "postgres") + entry("gone", "postgres")), USERS);
        Map<String, List<String>> seen = new LinkedHashMap<>();
        try {
            for (Pooler p : poolers) {
                Connection idle = p.connect("gone");
                Connection inTransaction = p.connect("gone");
                Connection other = p.connect("keep");
                try {
                    assertThat(Queries.run(idle, "select 1")).isEqualTo("1");
                    inTransaction.setAutoCommit(false);
                    assertThat(Queries.run(inTransaction, "select 1")).isEqualTo("1");
                    assertThat(Queries.run(other, "select 1")).isEqualTo("1");

                    p.editIni(text -> text.replaceAll("(?m)^gone = .*\\n", ""));
                    p.signal("HUP");
                    Await.until(Duration.ofSeconds(10), () -> p.log().contains("dropping database 'gone'"),
                            p + " logging the dropped database");

                    List<String> outcome = new ArrayList<>();
                    outcome.add("idle client: " + gist(Queries.run(idle, "select 2")));
                    outcome.add("client in a transaction: " + gist(Queries.run(inTransaction, "select 2")));
                    outcome.add("client of another database: " + Queries.run(other, "select 2"));
                    outcome.add("new client: " + gist(newClient(p, "gone")));
                    outcome.add("log: " + p.log().contains("closing because: database removed"));
                    outcome.add("pool still listed: " + console(p, "SHOW POOLS").stdout().lines()
                            .anyMatch(l -> l.startsWith("gone|")));
                    seen.put(p.name, outcome);
                } finally {
                    Queries.closeQuietly(idle);
                    Queries.closeQuietly(inTransaction);
                    Queries.closeQuietly(other);
                }
            }
        } finally {
            Pooler.closeAll(poolers);
        }
        System.out.println("database removed by SIGHUP: " + seen);
        assertThat(seen.get("sluice")).containsExactly(
                "idle client: database removed",
                "client in a transaction: database removed",
                "client of another database: 2",
                "new client: no such database: gone",
                "log: true",
                "pool still listed: false");
        if (seen.containsKey("pgbouncer")) {
            assertThat(seen.get("sluice")).as("Sluice as PgBouncer").isEqualTo(seen.get("pgbouncer"));
        }
    }

    private static String newClient(Pooler p, String db) {
        try (Connection c = p.connect(db)) {
            return Queries.run(c, "select 1");
        } catch (SQLException e) {
            return "ERROR: " + e.getMessage();
        }
    }

    @Test
    void aReloadOfAFileThatDoesNotLoadChangesNothingAndTheLogSaysWhy() throws Exception {
        List<Pooler> poolers = Pooler.both(ini(entry("keep", "postgres") + entry("gone", "postgres")), USERS);
        Map<String, List<String>> seen = new LinkedHashMap<>();
        try {
            for (Pooler p : poolers) {
                try (Connection c = p.connect("gone")) {
                    assertThat(Queries.run(c, "select 1")).isEqualTo("1");
                    p.editIni(text -> text.replaceAll("(?m)^gone = .*\\n", "")
                            .replace("default_pool_size = 4", "default_pool_size = 7") + "bogus_key = 1\n");
                    ProcessResult reload = console(p, "RELOAD");
                    System.out.println(p + " answered RELOAD of a bad file: " + reload.describe());
                    if (!p.isPgBouncer()) {
                        // PgBouncer 1.25's answer; 1.18 still answered "RELOAD"
                        assertThat(reload.exitCode()).isNotZero();
                        assertThat(reload.stderr()).contains("RELOAD failed, see logs for additional details");
                        assertThat(showConfig(p, "default_pool_size")).as("nothing of the bad file applied")
                                .isEqualTo("4");
                    }
                    List<String> outcome = new ArrayList<>();
                    outcome.add("client of the database left out: " + Queries.run(c, "select 2"));
                    outcome.add("new client: " + newClient(p, "gone"));
                    outcome.add("log names the key: " + p.log().contains("bogus_key"));
                    outcome.add("log: " + p.log().contains("config file loading failed"));
                    seen.put(p.name, outcome);
                }
            }
        } finally {
            Pooler.closeAll(poolers);
        }
        System.out.println("bad file: " + seen);
        assertThat(seen.get("sluice")).containsExactly("client of the database left out: 2", "new client: 1",
                "log names the key: true", "log: true");
        if (seen.containsKey("pgbouncer")) {
            assertThat(seen.get("sluice")).as("Sluice as PgBouncer").isEqualTo(seen.get("pgbouncer"));
        }
    }

    private static String showConfig(Pooler p, String key) {
        ProcessResult r = ProcessRunner.of("psql", "-X", "-A", "-t", "-h", "127.0.0.1", "-p", String.valueOf(p.port()),
                "-U", "postgres", "-d", "pgbouncer", "-c", "show config").run().requireSuccess();
        return r.stdout().lines().filter(l -> l.startsWith(key + "|")).map(l -> l.split("\\|")[1])
                .findFirst().orElseThrow();
    }

    @Test
    void reloadThatChangesADatabasesTargetClosesItsServersOnceReleasedAndConnectsToTheNewOne() throws Exception {
        PgCluster pg = PgCluster.shared();
        Map<String, List<String>> seen = new LinkedHashMap<>();
        for (String name : List.of("sluice", "pgbouncer")) {
            String a = PgCluster.uniqueName("move_a");
            String b = PgCluster.uniqueName("move_b");
            pg.createDatabase(a, PgCluster.SUPERUSER);
            pg.createDatabase(b, PgCluster.SUPERUSER);
            String ini = ini(entry("moving", a));
            if (name.equals("pgbouncer") && !io.sluice.testkit.PgBouncerProcess.available()) {
                continue;
            }
            try (Pooler p = name.equals("sluice") ? Pooler.sluice(ini, USERS) : Pooler.pgbouncer(ini, USERS);
                 Connection inTransaction = p.connect("moving"); Connection between = p.connect("moving")) {
                inTransaction.setAutoCommit(false);
                String pid = Queries.run(inTransaction, "select pg_backend_pid()");
                assertThat(Queries.run(between, "select current_database()")).isEqualTo(a);
                assertThat(backends(a)).isEqualTo(2);

                p.editIni(text -> text.replace("dbname=" + a, "dbname=" + b));
                ProcessResult reload = console(p, "RELOAD");
                assertThat(reload.exitCode()).as(reload.describe()).isZero();

                List<String> outcome = new ArrayList<>();
                outcome.add("open transaction: " + tag(Queries.run(inTransaction, "select current_database()"), a, b)
                        + " on the same server: " + Queries.run(inTransaction, "select pg_backend_pid()").equals(pid));
                outcome.add("next transaction: " + tag(Queries.run(between, "select current_database()"), a, b));
                inTransaction.commit();
                outcome.add("after commit: " + tag(Queries.run(inTransaction, "select current_database()"), a, b));
                inTransaction.commit();
                Await.until(Duration.ofSeconds(10), () -> backends(a) == 0, p + " closing the servers of the old target");
                outcome.add("servers left on the old target: " + backends(a));
                seen.put(p.name, outcome);
            }
        }
        System.out.println("target changed by RELOAD: " + seen);
        assertThat(seen.get("sluice")).containsExactly("open transaction: old on the same server: true",
                "next transaction: new", "after commit: new", "servers left on the old target: 0");
        if (seen.containsKey("pgbouncer")) {
            assertThat(seen.get("sluice")).as("Sluice as PgBouncer").isEqualTo(seen.get("pgbouncer"));
        }
    }

    /**
     * A reload that points a database elsewhere forgets the welcome parameters its pool learned
     * (PgBouncer's tag_pool_dirty): the next login is greeted by the new target, here one whose
     * database does not exist, and is refused at login as with PgBouncer. Sluice used to greet it
     * with the old target's parameters and fail its first query instead.
     */
    @Test
    void aLoginAfterATargetChangeIsGreetedByTheNewTarget() throws Exception {
        Pooler.sameAnswers("login after a target change", ini(entry("moving", "postgres")), USERS, p -> {
            List<String> seen = new ArrayList<>();
            seen.add(loginAndAsk(p, "moving"));
            p.editIni(text -> text.replace("dbname=postgres", "dbname=no_such_target"));
            seen.add(console(p, "RELOAD").stdout().strip());
            seen.add(loginAndAsk(p, "moving"));
            return seen;
        }, "postgres", "RELOAD", "E FATAL 3D000 database \"no_such_target\" does not exist");
    }

    /**
     * An entry removed from [databases] is dropped, with its clients, even where a {@code *}
     * fallback would take its name; the next login to that name goes through the fallback.
     */
    @Test
    void anEntryRemovedBesideAFallbackIsDropped() throws Exception {
        String fallback = "* = host=127.0.0.1 port=" + PgCluster.shared().port() + "\n";
        Pooler.sameAnswers("entry removed beside '*'", ini(entry("named", "postgres") + fallback), USERS, p -> {
            List<String> seen = new ArrayList<>();
            try (RawClient held = new RawClient(p.port())) {
                held.send(RawClient.startup(Map.of("user", "postgres", "database", "named")));
                seen.add("held: " + held.readUntilReadyOrError());
                seen.add(held.queryOne("select current_database()"));
                p.editIni(text -> text.replace(entry("named", "postgres"), ""));
                seen.add(console(p, "RELOAD").stdout().strip());
                seen.addAll(held.describeUntilClosed(3));
            }
            seen.add(loginAndAsk(p, "named"));
            return seen;
        }, "held: null", "postgres", "RELOAD", "E FATAL 08P01 database removed", "EOF",
                "E FATAL 3D000 database \"named\" does not exist");
    }

    /** A new client's current database, or the error that ended its login. */
    private static String loginAndAsk(Pooler p, String db) throws Exception {
        try (RawClient c = new RawClient(p.port())) {
            c.send(RawClient.startup(Map.of("user", "postgres", "database", db)));
            Map<Character, String> error = c.readUntilReadyOrError();
            if (error != null) {
                String code = error.get('C');
                if (p.isPgBouncer() && code.equals("08P01") && error.get('M').endsWith("does not exist")) {
                    // 1.18 sends a server's login refusal as 08P01; 1.25 passes its SQLSTATE on, as Sluice
                    code = "3D000";
                }
                return "E " + error.get('S') + " " + code + " " + error.get('M');
            }
            return c.queryOne("select current_database()");
        }
    }

    private static String tag(String db, String a, String b) {
        return db.equals(a) ? "old" : db.equals(b) ? "new" : db;
    }

    private static int backends(String db) {
        return Integer.parseInt(PgCluster.shared().query("select count(*) from pg_stat_activity where datname = '"
                + db + "' and backend_type = 'client backend'").get(0).get(0));
    }
}
