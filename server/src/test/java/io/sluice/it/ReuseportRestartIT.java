package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.NetNamespace;
import io.sluice.testkit.PgBinaries;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import io.sluice.testkit.SluiceProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Issue 17, acceptance 2: the restart recipe under load drops nothing. A new process starts on
 * the same port (so_reuseport), then the old one is told SHUTDOWN WAIT_FOR_CLIENTS (or SIGTERM):
 * it stops listening, its clients finish there, new connections land on the new process.
 *
 * <p>Closing a listener of an SO_REUSEPORT group resets the connections queued on it (accepted
 * by the kernel, not yet by the process) unless {@code net.ipv4.tcp_migrate_req = 1} (Linux
 * 5.14+) moves them to another listener of the group; docs/restarts.md tells operators to set
 * it. It is a per-network-namespace setting, so the test sets it in a namespace of its own, where
 * the poolers and pgbench run; PostgreSQL is reached over its unix socket, which namespaces share.
 */
class ReuseportRestartIT {
    static NetNamespace ns;
    static PgCluster pg;
    static String db;

    @BeforeAll
    static void setUp() {
        assumeTrue(NetNamespace.unavailable().isEmpty(),
                () -> "the restart runs in a network namespace of its own: " + NetNamespace.unavailable().orElse(""));
        pg = PgCluster.shared();
        db = PgCluster.uniqueName("restart");
        pg.createDatabase(db, PgCluster.SUPERUSER);
        ProcessRunner.pgbenchCommand("-i", "-s", "1", "-q", "-h", PgCluster.HOST, "-p", String.valueOf(pg.port()),
                "-U", PgCluster.SUPERUSER, db).run().requireSuccess();
        ns = NetNamespace.create();
        // -Dsluice.it.tcpMigrateReq=0 shows what the kernel's default does to the same restarts
        int migrate = Integer.getInteger("sluice.it.tcpMigrateReq", 1);
        ProcessRunner.of(ns.wrap(List.of("sysctl", "-w", "net.ipv4.tcp_migrate_req=" + migrate))).run().requireSuccess();
        System.out.println("restart: net.ipv4.tcp_migrate_req in the namespace = " + ProcessRunner.of(
                ns.wrap(List.of("sysctl", "-n", "net.ipv4.tcp_migrate_req"))).run().requireSuccess().out());
    }

    @AfterAll
    static void tearDown() {
        if (ns != null) {
            ns.close();
        }
    }

    /**
     * 50 clients that stay connected: those on the old process finish there, which then exits by
     * itself once pgbench ends; the kernel gave the others to the new process from the start.
     */
    @Test
    void fiftyTransactionModeClientsFinishOnTheOldProcess() throws Exception {
        try (ReusePortGroup group = group()) {
            SluiceProcess old = startBoth(group);
            long benchStart = System.nanoTime();
            CompletableFuture<ProcessResult> bench = pgbench(group, "-c", "50", "-j", "2", "-T", "6");
            // pgbench may still be connecting the rest: those land on the new process, refused by nobody
            Await.until(Duration.ofSeconds(30), () -> clients(group, 1) > 0, "pgbench's clients on the old process");
            int onOld = clients(group, 1);
            long switchAt = stopOld(bench, benchStart, () -> group.console(1, "SHUTDOWN WAIT_FOR_CLIENTS"));
            ProcessResult run = bench.get();
            assertThat(old.waitFor(Duration.ofSeconds(20))).as("old process exits once its clients have left").isTrue();
            assertThat(old.exitCode()).isZero();
            long xacts = checkClean(run);
            System.out.printf("restart under pgbench -c 50 (transaction mode): pgbench ran %d ms, old process"
                    + " told SHUTDOWN WAIT_FOR_CLIENTS at %d ms; %d transactions, 0 failed, 0 aborted, 0 refused;"
                    + " %d clients finished on the old process, %d ran on the new one%n",
                    run.elapsed().toMillis(), switchAt, xacts, onOld, 50 - onOld);
        }
    }

    /** A new connection per transaction: once the old process is stopped, every one lands on the new process. */
    @Test
    void connectionPerTransactionClientsMoveToTheNewProcess() throws Exception {
        try (ReusePortGroup group = group()) {
            SluiceProcess old = startBoth(group);
            long benchStart = System.nanoTime();
            CompletableFuture<ProcessResult> bench = pgbench(group, "-C", "-c", "10", "-j", "2", "-T", "6");
            Await.until(Duration.ofSeconds(30), () -> xacts(group, 1) > 0, "transactions on the old process");
            long onOld = xacts(group, 1);
            long switchAt = stopOld(bench, benchStart, () -> old.signal("TERM"));
            long newAtSwitch = xacts(group, 2);
            assertThat(old.waitFor(Duration.ofSeconds(20))).as("old process exits once its clients have left").isTrue();
            assertThat(old.exitCode()).isZero();
            ProcessResult run = bench.get();
            long xacts = checkClean(run);
            long onNew = xacts(group, 2);
            assertThat(onNew).as("connections the new process served").isPositive();
            System.out.printf("restart under pgbench -C -c 10: pgbench ran %d ms, old process sent SIGTERM at %d ms;"
                    + " %d connections (one transaction each), 0 failed, 0 aborted, 0 refused; SHOW STATS_TOTALS"
                    + " xact_count: old process %d before SIGTERM, new process %d at SIGTERM and %d at"
                    + " the end%n", run.elapsed().toMillis(), switchAt, xacts, onOld, newAtSwitch, onNew);
        }
    }

    /**
     * Both processes listen before the load starts: a JVM start takes seconds on a busy machine,
     * and only stopping the old listener can drop anyone, which happens under load below.
     */
    private static SluiceProcess startBoth(ReusePortGroup group) {
        SluiceProcess old = group.start(1);
        group.start(2);
        return old;
    }

    /** Stops the old process with {@code stop} while pgbench runs; returns ms since pgbench started. */
    private static long stopOld(CompletableFuture<ProcessResult> bench, long benchStart, Runnable stop) {
        stop.run();
        assertThat(bench).as("the old process was stopped while pgbench ran").isNotDone();
        return (System.nanoTime() - benchStart) / 1_000_000;
    }

    private static ReusePortGroup group() throws Exception {
        return new ReusePortGroup(2, db + " = host=" + pg.socketDir() + " port=" + pg.port(),
                "pool_mode = transaction\ndefault_pool_size = 20\nmax_client_conn = 200\nlog_connections = 0\n"
                        + "log_disconnections = 0\nstats_period = 1", ns.wrap(List.of()));
    }

    private static CompletableFuture<ProcessResult> pgbench(ReusePortGroup group, String... args) {
        // -N: TPC-B without the branch and teller updates, whose one hot row at scale 1 would
        // serialize 50 clients behind each other's locks
        List<String> cmd = new ArrayList<>(List.of(PgBinaries.tool("pgbench"), "-n", "-N", "-h", PgCluster.HOST,
                "-p", String.valueOf(group.port), "-U", PgCluster.SUPERUSER));
        cmd.addAll(List.of(args));
        cmd.add(db);
        ProcessRunner r = ProcessRunner.of(ns.wrap(cmd)).timeout(Duration.ofMinutes(1))
                .env("PGSSLMODE", "disable").env("PGCONNECT_TIMEOUT", "10");
        return CompletableFuture.supplyAsync(r::run);
    }

    /** Transactions pgbench completed; fails on any failed transaction, aborted client or refused connection. */
    private static long checkClean(ProcessResult run) {
        assertThat(run.exitCode()).as(run.describe()).isZero();
        assertThat(run.stderr()).as("no client aborted, no connection refused or reset").doesNotContainIgnoringCase("abort")
                .doesNotContain("connection to server").doesNotContain("could not");
        assertThat(PgbenchTransactionModeIT.number(run.stdout(), "number of failed transactions: (\\d+)")).isZero();
        long xacts = PgbenchTransactionModeIT.number(run.stdout(), "number of transactions actually processed: (\\d+)");
        assertThat(xacts).isPositive();
        return xacts;
    }

    private static int clients(ReusePortGroup group, int peerId) {
        return (int) group.console(peerId, "SHOW CLIENTS").stream().filter(r -> r[2].equals(db)).count();
    }

    /** xact_count of SHOW STATS_TOTALS for the database on one process. */
    private static long xacts(ReusePortGroup group, int peerId) {
        return group.console(peerId, "SHOW STATS_TOTALS").stream().filter(r -> r[0].equals(db))
                .mapToLong(r -> Long.parseLong(r[2])).sum();
    }
}
