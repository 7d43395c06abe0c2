package io.sluice.it;

import io.sluice.testkit.PgBouncerProcess;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 12 item 14: ids, server_lifetime = 0, SHOW TOTALS and load_balance_hosts as operators read them. */
class OperatorCountersIT {
    private static final String USERS = "\"postgres\" \"\"\n";

    @Test
    void clientAndServerIdsComeFromOneCounter() throws Exception {
        PgCluster pg = PgCluster.shared();
        List<RawClient> clients = new ArrayList<>();
        try (SluiceFixture sluice = SluiceFixture.start(pg, "postgres = host=127.0.0.1 port=$PGPORT",
                "auth_type = trust\npool_mode = session\nadmin_users = postgres", USERS)) {
            for (int i = 0; i < 3; i++) {
                RawClient c = new RawClient(sluice.port);
                c.send(RawClient.startup(Map.of("user", "postgres", "database", "postgres")));
                assertThat(c.readUntilReadyOrError()).isNull();
                assertThat(c.queryOne("select 1")).isEqualTo("1");
                clients.add(c);
            }
            Set<String> clientIds = column(console(sluice.port, "show clients"), 20);
            Set<String> serverIds = column(console(sluice.port, "show servers"), 20);
            System.out.println("SHOW CLIENTS ids " + clientIds + ", SHOW SERVERS ids " + serverIds);
            assertThat(clientIds).hasSizeGreaterThanOrEqualTo(3);
            assertThat(serverIds).hasSize(3);
            assertThat(clientIds).doesNotContainAnyElementsOf(serverIds);
        } finally {
            for (RawClient c : clients) {
                c.close();
            }
        }
    }

    /**
     * server_lifetime = 0: each server serves one client and closes on release; a login alone (the
     * pooler learning the greeting) does not use it up, so N clients cost N backends, as in PgBouncer.
     */
    @Test
    void serverLifetimeZeroUsesEachServerForOneClient() throws Exception {
        PgCluster pg = PgCluster.shared();
        Map<String, Integer> backends = new LinkedHashMap<>();
        String settings = "auth_type = trust\npool_mode = transaction\nserver_lifetime = 0\n";
        String db = PgCluster.uniqueName("lifetime0");
        pg.createDatabase(db, PgCluster.SUPERUSER);
        try (SluiceFixture sluice = SluiceFixture.start(pg, db + " = host=127.0.0.1 port=$PGPORT", settings, USERS)) {
            backends.put("Sluice", backendsFor(pg, db, sluice.port));
        }
        if (PgBouncerProcess.available()) {
            String db2 = PgCluster.uniqueName("lifetime0");
            pg.createDatabase(db2, PgCluster.SUPERUSER);
            try (PgBouncerProcess pgb = PgBouncerProcess.start("[databases]\n" + db2 + " = host=127.0.0.1 port="
                    + pg.port() + "\n[pgbouncer]\n" + settings, USERS)) {
                backends.put("PgBouncer " + PgBouncerProcess.version(), backendsFor(pg, db2, pgb.port()));
            }
        }
        System.out.println("server_lifetime = 0, backends for 4 clients of one transaction each: " + backends);
        backends.values().forEach(n -> assertThat(n).isEqualTo(4));
    }

    private static int backendsFor(PgCluster pg, String db, int port) {
        Set<String> pids = new HashSet<>();
        for (int i = 0; i < 4; i++) {
            ProcessResult r = ProcessRunner.psql("127.0.0.1", port, db, "postgres", null, "select pg_backend_pid()");
            assertThat(r.exitCode()).as(r.describe()).isZero();
            pids.add(r.out());
        }
        assertThat(pids).as("a new backend each time").hasSize(4);
        return ConnectionStartups.of(pg.logText(), db).backendsCreated;
    }

    /**
     * Console commands count in database pgbouncer's stats, so in SHOW TOTALS; like PgBouncer,
     * only the first command of each console connection (it never closes a console query's timing).
     */
    @Test
    void showTotalsCountsConsoleCommandsAsPgBouncerDoes() throws Exception {
        PgCluster pg = PgCluster.shared();
        Map<String, List<String>> seen = new LinkedHashMap<>();
        String databases = "postgres = host=127.0.0.1 port=" + pg.port();
        String settings = "auth_type = trust\nadmin_users = postgres\n";
        try (SluiceFixture sluice = SluiceFixture.start(pg, databases, settings, USERS)) {
            seen.put("Sluice", totalsSequence(sluice.port));
        }
        if (PgBouncerProcess.available()) {
            try (PgBouncerProcess pgb = PgBouncerProcess.start("[databases]\n" + databases + "\n[pgbouncer]\n"
                    + settings, USERS)) {
                seen.put("PgBouncer " + PgBouncerProcess.version(), totalsSequence(pgb.port()));
            }
        }
        System.out.println("total_query_count/total_xact_count read by successive console connections: " + seen);
        assertThat(seen.get("Sluice")).containsExactly("1/1", "2/2", "4/4");
        seen.values().forEach(v -> assertThat(v).isEqualTo(seen.get("Sluice")));
    }

    /** Reads the totals on three connections; between the 2nd and 3rd, one connection runs two commands. */
    private static List<String> totalsSequence(int port) {
        List<String> out = new ArrayList<>();
        out.add(totals(port));
        out.add(totals(port));
        ProcessResult two = ProcessRunner.of(io.sluice.testkit.PgBinaries.tool("psql"), "-X", "-A", "-t",
                "-h", "127.0.0.1", "-p", Integer.toString(port), "-U", "postgres", "-d", "pgbouncer",
                "-c", "show version", "-c", "show version").env("PGOPTIONS", null).run();
        assertThat(two.exitCode()).as(two.describe()).isZero();
        out.add(totals(port));
        return out;
    }

    private static String totals(int port) {
        Map<String, String> rows = new LinkedHashMap<>();
        console(port, "show totals").forEach(f -> rows.put(f[0], f[1]));
        return rows.get("total_query_count") + "/" + rows.get("total_xact_count");
    }

    /** load_balance_hosts reads as written in the config (PgBouncer 1.24+; 1.18 has no such column). */
    @Test
    void loadBalanceHostsIsShownInLowerCase() throws Exception {
        PgCluster pg = PgCluster.shared();
        try (SluiceFixture sluice = SluiceFixture.start(pg,
                "rr = host=127.0.0.1,localhost port=$PGPORT dbname=postgres\n"
                        + "dis = host=127.0.0.1,localhost port=$PGPORT dbname=postgres load_balance_hosts=disable",
                "auth_type = trust\nadmin_users = postgres", USERS)) {
            for (String db : List.of("rr", "dis")) {
                ProcessResult r = ProcessRunner.psql("127.0.0.1", sluice.port, db, "postgres", null, "select 1");
                assertThat(r.exitCode()).as(r.describe()).isZero();
            }
            Map<String, String> databases = new LinkedHashMap<>();
            console(sluice.port, "show databases").forEach(f -> databases.put(f[0], f[10]));
            Map<String, String> pools = new LinkedHashMap<>();
            console(sluice.port, "show pools").forEach(f -> pools.put(f[0], f[16]));
            assertThat(databases).containsEntry("rr", "round-robin").containsEntry("dis", "disable")
                    .containsEntry("pgbouncer", "");
            assertThat(pools).containsEntry("rr", "round-robin").containsEntry("dis", "disable");
        }
    }

    private static List<String[]> console(int port, String command) {
        ProcessResult r = ProcessRunner.psql("127.0.0.1", port, "pgbouncer", "postgres", null, command);
        assertThat(r.exitCode()).as(r.describe()).isZero();
        return r.out().lines().map(l -> l.split("\\|", -1)).toList();
    }

    private static Set<String> column(List<String[]> rows, int index) {
        Set<String> out = new HashSet<>();
        rows.forEach(f -> out.add(f[index]));
        return out;
    }
}
