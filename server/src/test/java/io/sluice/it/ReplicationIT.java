package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.PgBinaries;
import io.sluice.testkit.PgBouncerProcess;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 12 item 10: replication connections (replication=true / database) pass through Sluice on a
 * dedicated server connection, as in PgBouncer 1.23+, so pg_basebackup and pg_recvlogical work
 * through it, even in transaction pooling. Debian's PgBouncer 1.18 predates this: it refuses the
 * startup parameter, which the test shows alongside.
 */
class ReplicationIT {
    static PgCluster pg;
    static SluiceFixture sluice;
    static final List<Path> dirs = new ArrayList<>();
    /**
     * pg_basebackup before PostgreSQL 17 ignores a dbname and always asks for database
     * "replication"; a PgBouncer user maps that name in [databases] the same way.
     */
    static final String REPLICATION_DB = "replication = host=127.0.0.1 port=$PGPORT dbname=postgres";

    @BeforeAll
    static void start() throws Exception {
        pg = PgCluster.builder()
                .config("wal_level = logical", "max_wal_senders = 10", "max_replication_slots = 10")
                .hba("local all all trust\nlocal replication all trust\n"
                        + "host all postgres 127.0.0.1/32 trust\nhost replication postgres 127.0.0.1/32 trust\n")
                .start();
        sluice = SluiceFixture.start(pg, "postgres = host=127.0.0.1 port=$PGPORT\n" + REPLICATION_DB,
                "auth_type = trust\npool_mode = transaction\nadmin_users = postgres", "\"postgres\" \"\"\n");
    }

    @AfterAll
    static void stop() throws Exception {
        if (sluice != null) {
            sluice.close();
        }
        if (pg != null) {
            pg.close();
        }
        for (Path d : dirs) {
            deleteTree(d);
        }
    }

    @Test
    void pgBasebackupStreamsAFullBackupThroughSluice() throws Exception {
        Path target = tempDir("basebackup");
        // PostgreSQL 15's pg_basebackup takes host, port and user from -d but asks for database "replication"
        ProcessResult r = ProcessRunner.of(PgBinaries.tool("pg_basebackup"), "-d", conninfo(sluice.port),
                        "-D", target.resolve("data").toString(), "-X", "stream", "-c", "fast", "--no-sync")
                .env("PGSSLMODE", "disable").timeout(Duration.ofMinutes(2)).run();
        assertThat(r.exitCode()).as(r.describe()).isZero();
        ProcessResult verify = ProcessRunner.of(PgBinaries.tool("pg_verifybackup"), target.resolve("data").toString())
                .timeout(Duration.ofMinutes(2)).run();
        assertThat(verify.exitCode()).as(verify.describe()).isZero();
        assertThat(verify.out() + verify.stderr()).contains("backup successfully verified");
        System.out.println("pg_basebackup through Sluice: " + r.elapsed().toMillis() + " ms, " + verify.out().strip());

        if (PgBouncerProcess.available()) {
            try (PgBouncerProcess pgb = PgBouncerProcess.start("[databases]\n"
                    + REPLICATION_DB.replace("$PGPORT", Integer.toString(pg.port()))
                    + "\n[pgbouncer]\nauth_type = trust\npool_mode = transaction\n", "\"postgres\" \"\"\n")) {
                ProcessResult old = ProcessRunner.of(PgBinaries.tool("pg_basebackup"), "-d", conninfo(pgb.port()),
                                "-D", target.resolve("pgb").toString(), "-X", "stream", "--no-sync")
                        .env("PGSSLMODE", "disable").timeout(Duration.ofMinutes(1)).run();
                System.out.println("pg_basebackup through PgBouncer " + PgBouncerProcess.version() + ": exit "
                        + old.exitCode() + ", " + old.stderr().strip());
                if (PgBouncerProcess.version().startsWith("1.18")) {
                    assertThat(old.exitCode()).isNotZero();
                    assertThat(old.stderr()).contains("unsupported startup parameter: replication");
                }
            }
        }
    }

    @Test
    void pgRecvlogicalDecodesChangesThroughSluice() throws Exception {
        String slot = "sluice_slot";
        pg.exec("create table repl_t (id int primary key, note text)");
        recvlogical("--slot", slot, "--create-slot", "-P", "test_decoding").requireSuccess();
        Path changes = tempDir("recvlogical").resolve("changes.txt");
        Process p = new ProcessBuilder(PgBinaries.tool("pg_recvlogical"), "-d", conninfo(sluice.port),
                "--slot", slot, "--start", "-f", changes.toString(), "--no-loop")
                .redirectErrorStream(true).redirectOutput(changes.resolveSibling("log").toFile()).start();
        try {
            // while the stream runs, its client and its own server show as replication=logical
            Await.until(Duration.ofSeconds(20), () -> console("show clients").contains("|logical|")
                    && console("show servers").contains("|logical|"), "SHOW CLIENTS/SERVERS list the logical stream");
            pg.exec("insert into repl_t values (1, 'one'), (2, 'two')");
            pg.exec("insert into repl_t values (3, 'three')");
            Await.until(Duration.ofSeconds(20), () -> read(changes).contains("id[integer]:3"), "changes decoded");
        } finally {
            p.destroy();
            assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(read(changes)).contains("table public.repl_t: INSERT: id[integer]:1 note[text]:'one'")
                .contains("table public.repl_t: INSERT: id[integer]:2 note[text]:'two'")
                .contains("table public.repl_t: INSERT: id[integer]:3 note[text]:'three'");
        System.out.println("pg_recvlogical through Sluice decoded " + read(changes).lines().count() + " lines");
        Await.until(Duration.ofSeconds(10), () -> !console("show servers").contains("|logical|"),
                "the dedicated server closes with its client");
        recvlogical("--slot", slot, "--drop-slot").requireSuccess();
    }

    /**
     * PgBouncer's own checks: replication commands, the client's application_name and any options
     * (not only tracked ones) reach the dedicated server, SQL on a physical walsender gets
     * PostgreSQL's refusal, and an ordinary client of the same pool is unaffected.
     */
    @Test
    void replicationConnectionsCarryTheClientsParametersAndOptions() {
        String extra = " application_name=abc options='-c enable_seqscan=off'";
        for (String mode : List.of("database", "yes")) {
            String through = replication(sluice.port, mode, "IDENTIFY_SYSTEM", "");
            assertThat(through.split("\\|")[0]).as(mode)
                    .isEqualTo(replication(pg.port(), mode, "IDENTIFY_SYSTEM", "").split("\\|")[0]);
            assertThat(replication(sluice.port, mode, "SHOW application_name", extra)).isEqualTo("abc");
            assertThat(replication(sluice.port, mode, "SHOW enable_seqscan", extra)).isEqualTo("off");
        }
        ProcessResult sql = psql(sluice.port, "yes", "select 1", "");
        assertThat(sql.exitCode()).isNotZero();
        assertThat(sql.stderr()).contains("cannot execute SQL commands in WAL sender for physical replication");
        ProcessResult plain = ProcessRunner.psql("127.0.0.1", sluice.port, "postgres", "postgres", null, "select 42");
        assertThat(plain.out()).isEqualTo("42");
        assertThat(replication(sluice.port, "database", "select 7", "")).isEqualTo("7");
    }

    private static String replication(int port, String mode, String command, String extra) {
        ProcessResult r = psql(port, mode, command, extra);
        assertThat(r.exitCode()).as(r.describe()).isZero();
        return r.out();
    }

    private static ProcessResult psql(int port, String mode, String command, String extra) {
        return ProcessRunner.of(PgBinaries.tool("psql"), "-X", "-A", "-t", "-c", command,
                conninfo(port) + " replication=" + mode + extra).env("PGOPTIONS", null).run();
    }

    private static String conninfo(int port) {
        return "host=127.0.0.1 port=" + port + " user=postgres dbname=postgres sslmode=disable";
    }

    private static ProcessResult recvlogical(String... args) {
        List<String> cmd = new ArrayList<>(List.of(PgBinaries.tool("pg_recvlogical"), "-d", conninfo(sluice.port)));
        cmd.addAll(List.of(args));
        return ProcessRunner.of(cmd).env("PGSSLMODE", "disable").timeout(Duration.ofMinutes(1)).run();
    }

    private static String console(String command) {
        ProcessResult r = ProcessRunner.psql("127.0.0.1", sluice.port, "pgbouncer", "postgres", null, command);
        assertThat(r.exitCode()).as(r.describe()).isZero();
        return r.out();
    }

    private static String read(Path p) {
        try {
            return Files.exists(p) ? Files.readString(p) : "";
        } catch (IOException e) {
            return "";
        }
    }

    private static Path tempDir(String prefix) throws IOException {
        Path d = Files.createTempDirectory("sluice-" + prefix);
        dirs.add(d);
        return d;
    }

    private static void deleteTree(Path d) throws IOException {
        if (Files.exists(d)) {
            try (Stream<Path> all = Files.walk(d)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
