package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.Jdbc;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessRunner;
import io.sluice.testkit.SluiceProcess;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.postgresql.PGConnection;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import static io.sluice.it.RssSampler.MIB;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Backpressure in both directions, measured on Sluice run as its own process (the shipped jar)
 * between a real PostgreSQL and a client that cannot keep up or a server that stops:
 * a 1 GB {@code COPY FROM STDIN} while its backend is SIGSTOPped for 10 s, and a 2 GB result
 * whose client stops reading for 10 s. Either way everything must arrive and Sluice's resident
 * memory must stay within {@value #GROWTH_LIMIT_MIB} MiB of its level before the transfer: the
 * stalled side must slow the other side down instead of being buffered in Sluice.
 *
 * <p>The Sluice JVM runs with {@link RssSampler#CAPPED_JVM}: a fixed, pre-touched heap so that its
 * RSS does not move with G1's heap sizing, and capped direct memory so that an overrun fails fast
 * instead of growing.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BackpressureIT {
    private static final long GROWTH_LIMIT_MIB = 64;
    private static final Duration STALL = Duration.ofSeconds(10);
    private static final long COPY_ROWS = 11_000_000;              // ~1.1 GB of ~100-byte rows
    private static final long STOP_AFTER = 128 * MIB;              // stop the backend this far into the copy
    private static final long RESULT_ROWS = 2_000_000;             // x 1000 bytes = 2 GB
    private static final String RESULT_SQL = "select repeat('x', 1000) from generate_series(1, " + RESULT_ROWS + ")";
    private static final Path JAR = Path.of("target/sluice.jar");

    private static PgCluster pg;

    @BeforeAll
    static void startPostgres() throws Exception {
        pg = PgCluster.builder().config("max_wal_size = 4GB").start();
        long free = Files.getFileStore(pg.dataDir()).getUsableSpace();
        assertThat(free).as("free disk for a 1.5 GB table under %s", pg.dataDir()).isGreaterThan(4L << 30);
        pg.exec("CREATE UNLOGGED TABLE bp_copy (id bigint, payload text)");
    }

    @AfterAll
    static void stopPostgres() {
        if (pg != null) {
            pg.close();
        }
    }

    @Test
    void copyIntoAStoppedBackendIsHeldBackAtTheClient() throws Exception {
        try (SluiceProcess sluice = startSluice(); RssSampler rss = new RssSampler(sluice.pid());
             Connection c = Jdbc.connect(sluice.host(), sluice.port(), "postgres", PgCluster.SUPERUSER, null, timeouts())) {
            warmUp(sluice, c);
            long baseline = rss.settle();
            long started = System.nanoTime();
            CopyRowSource rows = new CopyRowSource(COPY_ROWS);
            CompletableFuture<Long> copy = inBackground("copy-in", () -> copyIn(c, rows));

            Await.until(Duration.ofSeconds(60), () -> rows.produced() >= STOP_AFTER || copy.isDone(),
                    "the copy to pass " + STOP_AFTER / MIB + " MiB");
            Stall stall = copy.isDone() ? null : stallBackend("COPY bp_copy%", rows::produced, copy, rss);
            Outcome<Long> done = Outcome.of(copy, Duration.ofSeconds(120));
            if (!copy.isDone()) {
                sluice.stop(); // frees the copy thread, blocked in a socket write, before the connection closes
            }
            long peak = rss.peak();
            double seconds = (System.nanoTime() - started) / 1e9;
            List<String> counts = pg.query("select count(*), sum(id), sum(length(payload)) from bp_copy").get(0);
            pg.exec("TRUNCATE bp_copy");

            System.out.printf("BackpressureIT copy: %d MiB produced in %.1f s, Sluice RSS baseline %d MiB, peak %d MiB"
                            + " (+%d MiB); %s; copy %s; rows in table %s%n",
                    rows.produced() / MIB, seconds, baseline / MIB, peak / MIB, (peak - baseline) / MIB,
                    stall == null ? "backend never stopped" : stall.describe("client had written"),
                    done.describe(), counts.get(0));
            System.out.println(logTail(sluice));
            SoftAssertions soft = new SoftAssertions();
            soft.assertThat(stall).as("the copy was still running when its backend was to be stopped").isNotNull();
            soft.assertThat(done.error).as("the copy's failure").isNull();
            soft.assertThat(done.value).as("rows COPY reported").isEqualTo(COPY_ROWS);
            soft.assertThat(rows.produced()).as("bytes streamed").isGreaterThanOrEqualTo(1L << 30);
            soft.assertThat(counts).as("count, sum(id), sum(length(payload)) in the table")
                    .containsExactly(Long.toString(COPY_ROWS), Long.toString(CopyRowSource.idSum(COPY_ROWS)),
                            Long.toString(COPY_ROWS * CopyRowSource.PAYLOAD));
            soft.assertThat(peak - baseline).as("Sluice RSS growth over its %d MiB baseline, bytes", baseline / MIB)
                    .isLessThanOrEqualTo(GROWTH_LIMIT_MIB * MIB);
            if (stall != null) {
                stall.assertHeldBack(soft, "bytes the client wrote");
            }
            soft.assertAll();
        }
    }

    @Test
    void aClientThatStopsReadingHoldsBackTheServer() throws Exception {
        try (SluiceProcess sluice = startSluice(); RssSampler rss = new RssSampler(sluice.pid());
             Connection c = Jdbc.connect(sluice.host(), sluice.port(), "postgres", PgCluster.SUPERUSER, null, timeouts());
             StreamingClient client = new StreamingClient(sluice.port(), PgCluster.SUPERUSER, "postgres")) {
            warmUp(sluice, c);
            long baseline = rss.settle();
            long started = System.nanoTime();
            client.query(RESULT_SQL);
            client.readRows(MIB);
            Stall stall = holdStill(client::rowBytes, null, rss, BackpressureIT::resultBackendWaitsOnClient);
            Throwable readFailure = null;
            try {
                client.readAll();
            } catch (IOException e) {
                readFailure = e;
            }
            long peak = rss.peak();
            double seconds = (System.nanoTime() - started) / 1e9;

            System.out.printf("BackpressureIT result: %d rows, %d MiB read in %.1f s, Sluice RSS baseline %d MiB,"
                            + " peak %d MiB (+%d MiB); %s%n", client.rows(), client.rowBytes() / MIB, seconds, baseline / MIB,
                    peak / MIB, (peak - baseline) / MIB, stall.describe("client had read"));
            System.out.println(logTail(sluice));
            SoftAssertions soft = new SoftAssertions();
            soft.assertThat(readFailure).as("reading the rest of the result").isNull();
            soft.assertThat(client.tag()).isEqualTo("SELECT " + RESULT_ROWS);
            soft.assertThat(client.rows()).isEqualTo(RESULT_ROWS);
            soft.assertThat(peak - baseline).as("Sluice RSS growth over its %d MiB baseline, bytes", baseline / MIB)
                    .isLessThanOrEqualTo(GROWTH_LIMIT_MIB * MIB);
            soft.assertThat(stall.serverBlocked).as("the backend waited on ClientWrite while the client did not read")
                    .isTrue();
            soft.assertAll();
        }
    }

    private static SluiceProcess startSluice() {
        return new SluiceProcess(JAR)
                .jvmArgs(RssSampler.CAPPED_JVM)
                .ini("[databases]\npostgres = host=127.0.0.1 port=" + pg.port() + " dbname=postgres\n"
                        + "[pgbouncer]\nauth_type = trust\npool_mode = transaction\ndefault_pool_size = 4\n"
                        + "log_stats = 0\n")
                .userlist("\"postgres\" \"\"\n")
                .start();
    }

    /** Sluice's last log lines: why a connection was closed, if one was. */
    private static String logTail(SluiceProcess sluice) {
        List<String> lines = sluice.output().lines().toList();
        return "Sluice log tail:\n  " + String.join("\n  ", lines.subList(Math.max(0, lines.size() - 8), lines.size()));
    }

    private static Properties timeouts() {
        Properties p = new Properties();
        p.setProperty("socketTimeout", "120");
        return p;
    }

    /** Runs each path the measured transfer takes (COPY in, a large result out) so JIT and pools are warm. */
    private static void warmUp(SluiceProcess sluice, Connection c) throws Exception {
        try (Statement s = c.createStatement()) {
            for (int i = 0; i < 20; i++) {
                s.execute("select " + i);
            }
        }
        assertThat(copyIn(c, new CopyRowSource(500_000))).isEqualTo(500_000L);
        pg.exec("TRUNCATE bp_copy");
        try (StreamingClient warm = new StreamingClient(sluice.port(), PgCluster.SUPERUSER, "postgres")) {
            warm.query("select repeat('x', 1000) from generate_series(1, 50000)");
            warm.readAll();
            assertThat(warm.rows()).isEqualTo(50_000);
        }
    }

    private static <T> CompletableFuture<T> inBackground(String name, Supplier<T> work) {
        CompletableFuture<T> f = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                f.complete(work.get());
            } catch (Throwable e) {
                f.completeExceptionally(e);
            }
        }, name);
        t.setDaemon(true);
        t.start();
        return f;
    }

    private static long copyIn(Connection c, CopyRowSource rows) {
        try {
            return c.unwrap(PGConnection.class).getCopyAPI()
                    .copyIn("COPY bp_copy (id, payload) FROM STDIN", rows, 1 << 16);
        } catch (Exception e) {
            throw new IllegalStateException("COPY through Sluice failed: " + e, e);
        }
    }

    /** SIGSTOPs the backend running {@code queryLike} for the stall, SIGCONT always follows. */
    private static Stall stallBackend(String queryLike, LongSupplier progress, CompletableFuture<?> transfer,
            RssSampler rss) {
        long pid = backendPid(queryLike);
        signal(pid, "STOP");
        try {
            return holdStill(progress, transfer, rss, () -> false);
        } finally {
            signal(pid, "CONT");
        }
    }

    private static long backendPid(String queryLike) {
        String sql = "select pid from pg_stat_activity where state = 'active' and pid <> pg_backend_pid()"
                + " and query like '" + queryLike + "'";
        Await.until(Duration.ofSeconds(10), () -> pg.query(sql).size() == 1, "one backend running " + queryLike);
        return Long.parseLong(pg.query(sql).get(0).get(0));
    }

    private static void signal(long pid, String sig) {
        ProcessRunner.of("kill", "-s", sig, Long.toString(pid)).timeout(Duration.ofSeconds(10)).run().requireSuccess();
    }

    /** True while the backend of the big result waits for its client (Sluice) to take more. */
    private static boolean resultBackendWaitsOnClient() {
        return pg.query("select count(*) from pg_stat_activity where wait_event = 'ClientWrite'"
                + " and query = '" + RESULT_SQL.replace("'", "''") + "'").get(0).get(0).equals("1");
    }

    /**
     * The 10 s stall itself (part of the scenario, not a synchronisation wait): samples the
     * transfer's progress every 100 ms, whether the transfer (null: none to watch) ended, and
     * whether {@code serverBlocked} was ever seen true.
     */
    private static Stall holdStill(LongSupplier progress, CompletableFuture<?> transfer, RssSampler rss,
            BooleanSupplier serverBlocked) {
        long start = System.nanoTime();
        long half = start + STALL.toNanos() / 2;
        long end = start + STALL.toNanos();
        Stall s = new Stall();
        s.atStart = progress.getAsLong();
        s.rssPeakBefore = rss.peak();
        s.atHalf = -1;
        while (System.nanoTime() < end) {
            if (s.atHalf < 0 && System.nanoTime() >= half) {
                s.atHalf = progress.getAsLong();
            }
            s.serverBlocked = s.serverBlocked || serverBlocked.getAsBoolean();
            s.finishedDuringStall |= transfer != null && transfer.isDone();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
        s.atEnd = progress.getAsLong();
        s.rssPeakDuring = rss.peak();
        return s;
    }

    /** Progress of the transfer over the stall. */
    private static final class Stall {
        long atStart;
        long atHalf;
        long atEnd;
        boolean serverBlocked;
        boolean finishedDuringStall;
        long rssPeakBefore;
        long rssPeakDuring;

        String describe(String what) {
            return String.format("%s %d MiB when the stall began, +%d MiB during it (+%d KiB in its second half)%s%s;"
                            + " Sluice RSS peak %d MiB before the stall, %d MiB by its end",
                    what, atStart / MIB, (atEnd - atStart) / MIB, (atEnd - atHalf) / 1024,
                    finishedDuringStall ? ", transfer ended during the stall" : "",
                    serverBlocked ? ", backend seen waiting on ClientWrite" : "",
                    rssPeakBefore / MIB, rssPeakDuring / MIB);
        }

        /** The stalled side must stop the other: little progress, none at all once the socket buffers are full. */
        void assertHeldBack(SoftAssertions soft, String what) {
            soft.assertThat(finishedDuringStall).as("the transfer ended while its backend was stopped").isFalse();
            soft.assertThat(atEnd - atStart).as("%s during the 10 s stall", what)
                    .isLessThanOrEqualTo(GROWTH_LIMIT_MIB * MIB);
            soft.assertThat(atEnd - atHalf).as("%s in the stall's second half (socket buffers long full)", what)
                    .isLessThan(MIB);
        }
    }

    /** How a transfer ended: its value, or the error it failed with. */
    private record Outcome<T>(T value, Throwable error) {
        static <T> Outcome<T> of(CompletableFuture<T> f, Duration timeout) throws InterruptedException {
            try {
                return new Outcome<>(f.get(timeout.toMillis(), TimeUnit.MILLISECONDS), null);
            } catch (ExecutionException e) {
                return new Outcome<>(null, e.getCause());
            } catch (TimeoutException e) {
                return new Outcome<>(null, e);
            }
        }

        String describe() {
            return error == null ? "returned " + value : "failed: " + error;
        }
    }
}
