package io.sluice.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Samples the resident memory (VmRSS of /proc/PID/status) of a Sluice JVM every 50 ms on a
 * daemon thread and keeps the highest value since the last {@link #resetPeak()}, so a short
 * spike between two reads of the test thread is not missed.
 */
final class RssSampler implements AutoCloseable {
    static final long MIB = 1024 * 1024;
    /**
     * JVM options for a Sluice whose memory a test bounds: a fixed, pre-touched heap (RSS does not
     * move with G1's sizing) and 64 MiB of direct memory, so a relay that buffers instead of
     * holding back fails with OutOfDirectMemoryError rather than growing or swapping.
     */
    static final String[] CAPPED_JVM = {"-Xms128m", "-Xmx128m", "-XX:+AlwaysPreTouch", "-XX:MaxDirectMemorySize=64m"};
    private static final long PERIOD_MS = 50;

    private final long pid;
    private final ScheduledExecutorService timer;
    private final AtomicLong last = new AtomicLong();
    private final AtomicLong peak = new AtomicLong();

    /** @param processPid the started process: the JVM itself, or a launcher script whose child is the JVM */
    RssSampler(long processPid) {
        this.pid = jvmPid(processPid);
        last.set(read(pid));
        peak.set(last.get());
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "rss-sampler-" + pid);
            t.setDaemon(true);
            return t;
        });
        timer.scheduleAtFixedRate(this::sample, PERIOD_MS, PERIOD_MS, TimeUnit.MILLISECONDS);
    }

    /** The JVM's pid: the process itself if it runs java, else its java descendant (bin/sluice forks one). */
    static long jvmPid(long processPid) {
        ProcessHandle p = ProcessHandle.of(processPid)
                .orElseThrow(() -> new IllegalStateException("no process " + processPid));
        if (isJava(p)) {
            return p.pid();
        }
        Optional<ProcessHandle> java = p.descendants().filter(RssSampler::isJava).findFirst();
        return java.orElseThrow(() -> new IllegalStateException("process " + processPid + " has no java child"))
                .pid();
    }

    private static boolean isJava(ProcessHandle p) {
        return p.info().command().map(c -> Path.of(c).getFileName().toString().equals("java")).orElse(false);
    }

    /** VmRSS in bytes. */
    static long read(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
            throw new IllegalStateException("no VmRSS line for pid " + pid);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the memory of pid " + pid + " (has it exited?)", e);
        }
    }

    private void sample() {
        try {
            long rss = read(pid);
            last.set(rss);
            peak.accumulateAndGet(rss, Math::max);
        } catch (RuntimeException e) {
            // The process is gone; keep the values seen so far, the test reports the failure.
        }
    }

    long pid() {
        return pid;
    }

    /** The latest sample. */
    long current() {
        return last.get();
    }

    /** The highest sample since the last reset (or since start). */
    long peak() {
        return peak.get();
    }

    /**
     * The RSS once idle and steady: memory a warm-up freed can take a moment to leave, so samples
     * every 100 ms until a second of them spans under 1 MiB (at most 15 s) and takes the highest
     * of that second. The peak window starts here.
     */
    long settle() {
        ArrayDeque<Long> window = new ArrayDeque<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (true) {
            window.addLast(read(pid));
            if (window.size() > 10) {
                window.removeFirst();
            }
            long max = Collections.max(window);
            boolean steady = window.size() == 10 && max - Collections.min(window) < MIB;
            if (steady || System.nanoTime() > deadline) {
                resetPeak();
                return max;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
    }

    /** Starts a new peak window at the current level. */
    void resetPeak() {
        long now = read(pid);
        last.set(now);
        peak.set(now);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
