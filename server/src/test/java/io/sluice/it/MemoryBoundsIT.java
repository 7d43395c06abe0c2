package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.SluiceProcess;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static io.sluice.it.RssSampler.MIB;

/**
 * Issue 15's memory bounds, on Sluice run as its own JVM with {@link RssSampler#CAPPED_JVM}
 * (fixed heap, 64 MiB of direct memory, so buffering instead of holding back is a failure): its
 * resident memory may rise at most {@value #GROWTH_LIMIT_MIB} MiB over its settled level while
 * <ul>
 * <li>item 2: a client pushes COPY data without waiting while the COPY waits on a table lock
 *     (PostgreSQL reads nothing meanwhile, so Sluice must stop reading the client);
 * <li>item 4: 1 GiB of 1 MiB rows is relayed to a client while another client's
 *     {@code select 1} keeps being answered.
 * </ul>
 * Item 1 (four unauthenticated clients pushing 200 MiB each) is pinned with the same JVM options
 * and bound in {@link LoginPacketLimitIT}; a COPY into a SIGSTOPped backend and a client that stops
 * reading, in {@link BackpressureIT}.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MemoryBoundsIT {
    private static final long GROWTH_LIMIT_MIB = 64;
    private static final Duration LOCK_HELD = Duration.ofSeconds(10);
    private static final int CHUNK = 64 * 1024;
    private static final long COPY_CHUNKS = 4096;                 // 256 MiB of COPY data
    private static final int ROW_MIB = 1;
    private static final int BIG_ROWS = 1024;                      // x 1 MiB = 1 GiB

    private static PgCluster pg;
    private static SluiceProcess sluice;
    private static String table;

    @BeforeAll
    static void start() {
        pg = PgCluster.shared();
        table = PgCluster.uniqueName("copy_locked");
        pg.exec("CREATE UNLOGGED TABLE " + table + " (id bigint, payload text)");
        sluice = new SluiceProcess(Path.of("target", "sluice.jar")).jvmArgs(RssSampler.CAPPED_JVM)
                .ini("[databases]\npostgres = host=127.0.0.1 port=" + pg.port() + " dbname=postgres\n"
                        + "[pgbouncer]\nauth_type = trust\npool_mode = transaction\ndefault_pool_size = 4\n"
                        + "log_stats = 0\n")
                .userlist("\"postgres\" \"\"\n").start();
    }

    @AfterAll
    static void stop() {
        if (sluice != null) {
            sluice.close();
        }
        if (table != null) {
            pg.exec("DROP TABLE IF EXISTS " + table);
        }
    }

    @Test
    void copyDataPushedAtACopyWaitingOnALockIsHeldBackAtTheClient() throws Exception {
        try (RssSampler rss = new RssSampler(sluice.pid()); RawClient c = new RawClient(sluice.port());
             Connection locker = pg.connect("postgres", PgCluster.SUPERUSER, null);
             Statement lock = locker.createStatement()) {
            c.send(RawClient.startup(Map.of("user", PgCluster.SUPERUSER, "database", "postgres")));
            assertNoError(c.readUntilReadyOrError(), "login");
            long baseline = rss.settle();
            locker.setAutoCommit(false);
            lock.execute("LOCK TABLE " + table + " IN ACCESS EXCLUSIVE MODE");
            AtomicLong written = new AtomicLong();
            CompletableFuture<Void> push = CompletableFuture.runAsync(() -> pushCopy(c, written));
            Await.until(Duration.ofSeconds(20), () -> pg.query("select count(*) from pg_stat_activity where"
                    + " wait_event_type = 'Lock' and query like 'COPY " + table + "%'").get(0).get(0).equals("1"),
                    "the COPY waiting on the lock");
            // The lock is the fault under test: held for a fixed time, the client's progress sampled.
            long atStart = written.get();
            LockSupport.parkNanos(LOCK_HELD.toNanos() / 2);
            long atHalf = written.get();
            LockSupport.parkNanos(LOCK_HELD.toNanos() / 2);
            long atEnd = written.get();
            long peakWhileLocked = rss.peak();
            locker.rollback();
            push.get(120, TimeUnit.SECONDS);
            Map<Character, String> end = c.readUntilReadyOrError();
            long rows = Long.parseLong(pg.query("select count(*) from " + table).get(0).get(0));

            System.out.printf("MemoryBoundsIT COPY on a lock: client had written %d MiB when the lock wait began,"
                            + " +%d KiB in %d s of it (+%d KiB in the second half); Sluice RSS baseline %d MiB, peak %d"
                            + " MiB while locked, %d MiB overall (+%d MiB); %d rows%n", atStart / MIB,
                    (atEnd - atStart) / 1024, LOCK_HELD.toSeconds(), (atEnd - atHalf) / 1024, baseline / MIB,
                    peakWhileLocked / MIB, rss.peak() / MIB, (rss.peak() - baseline) / MIB, rows);
            SoftAssertions soft = new SoftAssertions();
            soft.assertThat(end).as("the COPY's outcome").isNull();
            soft.assertThat(rows).as("rows copied").isEqualTo(COPY_CHUNKS * rowsPerChunk());
            soft.assertThat(atEnd).as("bytes the client got rid of while the COPY waited on the lock")
                    .isLessThanOrEqualTo(GROWTH_LIMIT_MIB * MIB);
            soft.assertThat(atEnd - atHalf).as("bytes written in the wait's second half (buffers long full)")
                    .isLessThan(MIB);
            soft.assertThat(rss.peak() - baseline).as("Sluice RSS growth, bytes")
                    .isLessThanOrEqualTo(GROWTH_LIMIT_MIB * MIB);
            soft.assertAll();
        }
    }

    /** Sends the COPY and, without waiting for CopyInResponse, its data and CopyDone; counts bytes written. */
    private static void pushCopy(RawClient c, AtomicLong written) {
        byte[] chunk = copyDataChunk();
        try {
            OutputStream out = c.socket.getOutputStream();
            out.write(RawClient.query("COPY " + table + " (id, payload) FROM STDIN"));
            for (long i = 0; i < COPY_CHUNKS; i++) {
                out.write(chunk);
                written.addAndGet(chunk.length);
            }
            out.write(new byte[] {'c', 0, 0, 0, 4});
            out.flush();
        } catch (Exception e) {
            throw new IllegalStateException("pushing COPY data failed after " + written.get() + " bytes", e);
        }
    }

    private static int rowsPerChunk() {
        return CHUNK / 64;
    }

    /** One CopyData message of {@link #rowsPerChunk()} 64-byte text rows. */
    private static byte[] copyDataChunk() {
        byte[] row = new byte[64];
        Arrays.fill(row, (byte) 'p');
        row[0] = '7';
        row[1] = '\t';
        row[63] = '\n';
        ByteBuffer b = ByteBuffer.allocate(5 + CHUNK).put((byte) 'd').putInt(4 + CHUNK);
        for (int i = 0; i < rowsPerChunk(); i++) {
            b.put(row);
        }
        return b.array();
    }

    @Test
    void aGibibyteOfOneMibRowsIsRelayedInBoundedMemoryWhileOthersAreServed() throws Exception {
        String sql = "select repeat('x', " + (ROW_MIB << 20) + ") from generate_series(1, " + BIG_ROWS + ")";
        try (RssSampler rss = new RssSampler(sluice.pid());
             StreamingClient big = new StreamingClient(sluice.port(), PgCluster.SUPERUSER, "postgres");
             RawClient bystander = new RawClient(sluice.port())) {
            bystander.send(RawClient.startup(Map.of("user", PgCluster.SUPERUSER, "database", "postgres")));
            assertNoError(bystander.readUntilReadyOrError(), "bystander login");
            big.query("select repeat('x', 1048576) from generate_series(1, 8)"); // warm the large-row path
            big.readAll();
            long baseline = rss.settle();
            AtomicBoolean running = new AtomicBoolean(true);
            CompletableFuture<long[]> others = CompletableFuture.supplyAsync(() -> selectOneLoop(bystander, running));
            long started = System.nanoTime();
            big.query(sql);
            big.readAll();
            double seconds = (System.nanoTime() - started) / 1e9;
            running.set(false);
            long[] o = others.get(60, TimeUnit.SECONDS);

            System.out.printf("MemoryBoundsIT large rows: %d rows, %d MiB in %.1f s; bystander select 1: %d answered, %d"
                            + " failed, worst %d ms; Sluice RSS baseline %d MiB, peak %d MiB (+%d MiB)%n", big.rows(),
                    big.rowBytes() / MIB, seconds, o[0], o[1], o[2], baseline / MIB, rss.peak() / MIB,
                    (rss.peak() - baseline) / MIB);
            SoftAssertions soft = new SoftAssertions();
            soft.assertThat(big.tag()).isEqualTo("SELECT " + BIG_ROWS);
            soft.assertThat(big.rows()).isEqualTo(BIG_ROWS);
            soft.assertThat(big.rowBytes()).as("bytes of rows").isGreaterThanOrEqualTo((long) BIG_ROWS << 20);
            soft.assertThat(o[0]).as("bystander queries answered meanwhile").isPositive();
            soft.assertThat(o[1]).as("bystander queries that failed").isZero();
            soft.assertThat(rss.peak() - baseline).as("Sluice RSS growth, bytes")
                    .isLessThanOrEqualTo(GROWTH_LIMIT_MIB * MIB);
            soft.assertAll();
        }
    }

    /** {@code select 1} in a loop until told to stop: {answered, failed, worst latency in ms}. */
    private static long[] selectOneLoop(RawClient c, AtomicBoolean running) {
        long answered = 0;
        long failed = 0;
        long worst = 0;
        while (running.get()) {
            long t = System.nanoTime();
            try {
                if ("1".equals(c.queryOne("select 1"))) {
                    answered++;
                } else {
                    failed++;
                }
            } catch (Exception e) {
                failed++;
                break; // the connection is gone: every later query would fail the same way
            }
            worst = Math.max(worst, (System.nanoTime() - t) / 1_000_000);
        }
        return new long[] {answered, failed, worst};
    }

    private static void assertNoError(Map<Character, String> error, String what) {
        if (error != null) {
            throw new AssertionError(what + " failed: " + error);
        }
    }
}
