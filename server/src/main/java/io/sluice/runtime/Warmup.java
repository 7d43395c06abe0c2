package io.sluice.runtime;

import io.netty.channel.EventLoopGroup;
import io.sluice.config.ConfigLoader;
import io.sluice.config.ConfigSnapshot;
import io.sluice.log.Log;
import io.sluice.net.Transport;
import io.sluice.warmup.ExerciseClient;
import io.sluice.warmup.StandInBackend;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs the login and relay paths before the listeners open, so that a fresh process meets its
 * first clients with loaded classes and compiled code. In a fresh process the first login took
 * 70-90 ms and the next hundred 1-4 ms each while the JVM interpreted them (about 0.1 ms once
 * compiled), and bench/fresh-start.sh's first herd of 200 clients took about twice PgBouncer's
 * time.
 *
 * <p>A private pooler of Sluice's own (a {@link SluiceServer} on 127.0.0.1 and a port the kernel
 * picks, no unix socket, its lines dropped, its stats its own) in front of a
 * {@link StandInBackend}; two clients, on a pool of one server so that one of them queues, log
 * in, run a simple and an extended query and log out, until the time budget is spent, a
 * round limit is reached, or rounds run as fast as compiled code runs them (an already warm
 * JVM, as in the tests, stops after a few). Nothing here touches the real server, PostgreSQL or
 * the configured ports; a failure is a warning, never a reason not to start.
 */
final class Warmup {
    /** System property: the warm-up's budget in milliseconds; 0 turns it off. */
    static final String BUDGET_PROPERTY = "sluice.warmup";
    /** The budget when taking over from a running process (which serves everyone meanwhile). */
    static final long HANDOVER_BUDGET_MILLIS = 250;
    static final int MAX_ROUNDS_PER_CLIENT = 1000;
    /** Rounds this short, this many in a row, mean the paths are compiled. */
    private static final long WARM_ROUND_NANOS = 1_000_000;
    private static final int WARM_STREAK = 20;
    private static final int CLIENTS = 2;
    /** How long a first round may take, in budgets, before the warm-up gives up on it. */
    private static final int FIRST_ROUND_BUDGETS = 4;
    private static final String DATABASE = "warmup";

    /** What a warm-up did; {@code failure} is null when it ran to its end. */
    record Outcome(int rounds, long nanos, String failure) {
    }

    private Warmup() {
    }

    /**
     * The budget in milliseconds: {@link #BUDGET_PROPERTY} if set, else {@link
     * #HANDOVER_BUDGET_MILLIS} on a handover and none on any other start. A start with no
     * process serving meanwhile would keep clients waiting for the port longer than the warm-up
     * saves them afterwards (bench/fresh-start.sh: 250 ms of warm-up delayed the first accept
     * by 280 ms and shortened the first herd by 140 ms); during a handover the old process
     * serves until this one is ready, so the warm-up costs its clients nothing.
     */
    static long budgetMillis(Map<String, String> env) {
        Long set = Long.getLong(BUDGET_PROPERTY);
        if (set != null) {
            return Math.max(0, set);
        }
        return Handover.from(env).isPresent() ? HANDOVER_BUDGET_MILLIS : 0;
    }

    /**
     * Sets the private pooler up, runs rounds for {@code budgetMillis} after the first one, and
     * tears it down.
     */
    static Outcome run(long budgetMillis) {
        long start = System.nanoTime();
        AtomicInteger rounds = new AtomicInteger();
        AtomicReference<String> failure = new AtomicReference<>();
        Transport transport = new Transport();
        EventLoopGroup backendLoop = transport.newGroup(1);
        SluiceServer server = null;
        Log.muteCurrentThread(true);
        try (StandInBackend backend = StandInBackend.start(backendLoop, transport.serverSocketChannel())) {
            server = new SluiceServer(config(backend.port()));
            server.loop().execute(() -> Log.muteCurrentThread(true));
            server.start();
            int port = server.listeners().tcpPorts().get(0);
            // The budget is for rounds after the first: the setup loads what the real server's start
            // loads anyway, and the first round loads the session's classes, which takes a few
            // hundred ms without a class-data archive (the first start after an upgrade). Until a
            // first round is done, the deadline is four budgets away.
            long budget = TimeUnit.MILLISECONDS.toNanos(budgetMillis);
            AtomicLong deadline = new AtomicLong(System.nanoTime() + FIRST_ROUND_BUDGETS * budget);
            List<Thread> clients = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                Thread t = new Thread(() -> exercise(port, budget, deadline, rounds, failure), "sluice-warmup-" + i);
                t.setDaemon(true);
                clients.add(t);
                t.start();
            }
            for (Thread t : clients) {
                // a round ends within ExerciseClient's socket timeout
                t.join(TimeUnit.NANOSECONDS.toMillis(Math.max(0, deadline.get() - System.nanoTime())) + 3000);
            }
        } catch (Exception e) {
            failure.compareAndSet(null, e.toString());
        } finally {
            if (server != null) {
                server.stopNow(0);
                try {
                    server.terminated().get(3, TimeUnit.SECONDS);
                } catch (Exception e) {
                    failure.compareAndSet(null, "its pooler did not stop: " + e);
                }
            }
            backendLoop.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).syncUninterruptibly();
            Log.muteCurrentThread(false);
        }
        return new Outcome(rounds.get(), System.nanoTime() - start, failure.get());
    }

    private static void exercise(int port, long budget, AtomicLong deadline, AtomicInteger rounds,
                                 AtomicReference<String> failure) {
        ExerciseClient client = new ExerciseClient(port, DATABASE, DATABASE);
        int fastInARow = 0;
        for (int i = 0; i < MAX_ROUNDS_PER_CLIENT && fastInARow < WARM_STREAK && failure.get() == null; i++) {
            long t0 = System.nanoTime();
            if (t0 >= deadline.get()) {
                return;
            }
            try {
                client.round();
            } catch (IOException e) {
                failure.compareAndSet(null, e.getMessage());
                return;
            }
            long t1 = System.nanoTime();
            if (i == 0) {
                deadline.accumulateAndGet(t1 + budget, Math::min);
            }
            rounds.incrementAndGet();
            fastInARow = t1 - t0 < WARM_ROUND_NANOS ? fastInARow + 1 : 0;
        }
    }

    /**
     * The private pooler: transaction pooling as most pools run, auth_type any (PgBouncer's
     * "any" needs a forced user, and no auth_file to read), nothing logged, nothing but TCP.
     */
    private static ConfigSnapshot config(int backendPort) throws Exception {
        return ConfigLoader.loadText("(warm-up)", String.join("\n",
                "[databases]",
                DATABASE + " = host=" + StandInBackend.HOST + " port=" + backendPort + " dbname=" + DATABASE
                        + " user=" + DATABASE + " pool_size=1",
                "[pgbouncer]",
                "listen_addr = " + StandInBackend.HOST,
                "listen_port = 0",
                "unix_socket_dir =",
                "auth_type = any",
                "pool_mode = transaction",
                "server_tls_sslmode = disable",
                "log_connections = 0",
                "log_disconnections = 0",
                "log_pooler_errors = 0",
                "log_stats = 0",
                ""));
    }
}
