package io.sluice.it;

import io.sluice.testkit.Jdbc;
import io.sluice.testkit.PgBouncerProcess;
import io.sluice.testkit.SluiceProcess;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pooler under test as an operator sees it: a process started from a pgbouncer.ini, its port,
 * its ini file (edit it, then RELOAD or SIGHUP), signals, and its log. {@link #both} starts
 * Sluice (its jar) and, when installed, Debian's PgBouncer from the same text, so a test runs
 * one scenario on each and compares what clients and operators saw.
 */
final class Pooler implements AutoCloseable {
    static final Path JAR = Path.of("target/sluice.jar");

    final String name;
    private final Ops ops;

    /** What a test drives of either process (SluiceProcess and PgBouncerProcess share no type). */
    private record Ops(IntSupplier port, Supplier<Path> dir, Consumer<String> signal, Supplier<String> log,
                       Predicate<Duration> waitFor, IntSupplier exitCode, Runnable stop) {
    }

    private Pooler(String name, Ops ops) {
        this.name = name;
        this.ops = ops;
    }

    int port() {
        return ops.port().getAsInt();
    }

    /** The temp dir: pgbouncer.ini, userlist.txt and the unix socket. */
    Path dir() {
        return ops.dir().get();
    }

    void signal(String signal) {
        ops.signal().accept(signal);
    }

    String log() {
        return ops.log().get();
    }

    /** True when the log has a server's (S-) line "closing because: {@code reason} (age=...)". */
    boolean loggedServerClose(String reason) {
        String words = "closing because: " + reason + " (age=";
        return log().lines().anyMatch(l -> l.contains(" S-") && l.contains(words));
    }

    /** True once the process has exited (waits at most {@code timeout}). */
    boolean exited(Duration timeout) {
        return ops.waitFor().test(timeout);
    }

    int exitCode() {
        return ops.exitCode().getAsInt();
    }

    @Override
    public void close() {
        ops.stop().run();
    }

    boolean isPgBouncer() {
        return name.equals("pgbouncer");
    }

    /**
     * A pgjdbc connection in simple query mode: no named statements tie it to one server, so
     * transaction pooling can hand it a different one each transaction.
     */
    Connection connect(String db) throws SQLException {
        return connect(db, new Properties());
    }

    /** {@link #connect(String)} as {@code user} (no password: for auth_type = trust). */
    Connection connect(String db, String user) throws SQLException {
        Properties props = new Properties();
        props.setProperty("preferQueryMode", "simple");
        return Jdbc.connect("127.0.0.1", port(), db, user, null, props);
    }

    /** {@link #connect(String)} with extra pgjdbc properties, e.g. {@code socketTimeout} for a fault test. */
    Connection connect(String db, Properties extra) throws SQLException {
        Properties props = new Properties();
        props.setProperty("preferQueryMode", "simple");
        props.putAll(extra);
        return Jdbc.connect("127.0.0.1", port(), db, "postgres", null, props);
    }

    Path ini() {
        return dir().resolve("pgbouncer.ini");
    }

    /** Rewrites the ini file in place (the fixture's listen lines stay). */
    void editIni(UnaryOperator<String> edit) {
        try {
            Files.writeString(ini(), edit.apply(Files.readString(ini())));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String toString() {
        return name;
    }

    /** Sluice, then PgBouncer when its binary is installed, each from {@code ini} and {@code userlist}. */
    static List<Pooler> both(String ini, String userlist) {
        List<Pooler> out = new ArrayList<>();
        out.add(sluice(ini, userlist));
        if (PgBouncerProcess.available()) {
            try {
                out.add(pgbouncer(ini, userlist));
            } catch (RuntimeException e) {
                out.forEach(Pooler::close);
                throw e;
            }
        }
        return out;
    }

    /** What a side-by-side test does with one pooler. */
    interface Scenario {
        void run(Pooler p) throws Exception;
    }

    /** Runs {@code scenario} on Sluice, then on PgBouncer when installed, each started from the same files and stopped after. */
    static void inTurn(String ini, String userlist, Scenario scenario) throws Exception {
        try (Pooler sluice = sluice(ini, userlist)) {
            scenario.run(sluice);
        }
        if (PgBouncerProcess.available()) {
            try (Pooler pgbouncer = pgbouncer(ini, userlist)) {
                scenario.run(pgbouncer);
            }
        }
    }

    /** What a side-by-side test records on one pooler: the answers its clients saw, in order. */
    interface Answers {
        List<String> of(Pooler p) throws Exception;
    }

    /**
     * The side-by-side check: runs {@code scenario} on each pooler {@link #inTurn in turn}, prints
     * what each answered under {@code label}, and asserts that Sluice answered {@code expected}
     * and PgBouncer, when installed, exactly the same.
     */
    static void sameAnswers(String label, String ini, String userlist, Answers scenario, String... expected)
            throws Exception {
        Map<String, List<String>> seen = new LinkedHashMap<>();
        inTurn(ini, userlist, p -> seen.put(p.name, scenario.of(p)));
        System.out.println(label + ": " + seen);
        assertThat(seen.get("sluice")).containsExactly(expected);
        if (seen.containsKey("pgbouncer")) {
            assertThat(seen.get("sluice")).as("Sluice as PgBouncer").isEqualTo(seen.get("pgbouncer"));
        }
    }

    static void closeAll(List<Pooler> poolers) {
        poolers.forEach(Pooler::close);
    }

    static Pooler sluice(String ini, String userlist) {
        SluiceProcess p = new SluiceProcess(JAR).jvmArgs("-Xmx256m").ini(ini).userlist(userlist).start();
        return new Pooler("sluice", new Ops(p::port, p::dir, p::signal, p::output, p::waitFor, p::exitCode, p::stop));
    }

    static Pooler pgbouncer(String ini, String userlist) {
        PgBouncerProcess p = PgBouncerProcess.start(ini, userlist);
        return new Pooler("pgbouncer",
                new Ops(p::port, p::dir, p::signal, p::logText, p::waitFor, p::exitCode, p::stop));
    }
}
