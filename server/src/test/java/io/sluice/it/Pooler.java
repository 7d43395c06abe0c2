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
import java.util.List;
import java.util.Properties;
import java.util.function.UnaryOperator;

/**
 * A pooler under test as an operator sees it: a process started from a pgbouncer.ini, its port,
 * its ini file (edit it, then RELOAD or SIGHUP), signals, and its log. {@link #both} starts
 * Sluice (its jar) and, when installed, Debian's PgBouncer from the same text, so a test runs
 * one scenario on each and compares what clients and operators saw.
 */
abstract class Pooler implements AutoCloseable {
    static final Path JAR = Path.of("target/sluice.jar");

    final String name;

    private Pooler(String name) {
        this.name = name;
    }

    abstract int port();

    /** The temp dir: pgbouncer.ini, userlist.txt and the unix socket. */
    abstract Path dir();

    abstract void signal(String signal);

    abstract String log();

    /** True once the process has exited (waits at most {@code timeout}). */
    abstract boolean exited(Duration timeout);

    abstract int exitCode();

    @Override
    public abstract void close();

    boolean isPgBouncer() {
        return name.equals("pgbouncer");
    }

    /**
     * A pgjdbc connection in simple query mode: no named statements tie it to one server, so
     * transaction pooling can hand it a different one each transaction.
     */
    Connection connect(String db) throws SQLException {
        Properties props = new Properties();
        props.setProperty("preferQueryMode", "simple");
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

    static void closeAll(List<Pooler> poolers) {
        poolers.forEach(Pooler::close);
    }

    static Pooler sluice(String ini, String userlist) {
        SluiceProcess p = new SluiceProcess(JAR).jvmArgs("-Xmx256m").ini(ini).userlist(userlist).start();
        return new Pooler("sluice") {
            @Override
            int port() {
                return p.port();
            }

            @Override
            Path dir() {
                return p.dir();
            }

            @Override
            void signal(String signal) {
                p.signal(signal);
            }

            @Override
            String log() {
                return p.output();
            }

            @Override
            boolean exited(Duration timeout) {
                return p.waitFor(timeout);
            }

            @Override
            int exitCode() {
                return p.exitCode();
            }

            @Override
            public void close() {
                p.stop();
            }
        };
    }

    static Pooler pgbouncer(String ini, String userlist) {
        PgBouncerProcess p = PgBouncerProcess.start(ini, userlist);
        return new Pooler("pgbouncer") {
            @Override
            int port() {
                return p.port();
            }

            @Override
            Path dir() {
                return p.dir();
            }

            @Override
            void signal(String signal) {
                p.signal(signal);
            }

            @Override
            String log() {
                return p.logText();
            }

            @Override
            boolean exited(Duration timeout) {
                return p.waitFor(timeout);
            }

            @Override
            int exitCode() {
                return p.exitCode();
            }

            @Override
            public void close() {
                p.stop();
            }
        };
    }
}
