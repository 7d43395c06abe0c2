package io.sluice.log;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * PgBouncer-shaped log lines: {@code 2026-11-30 10:37:27.600 UTC [pid] LOG C-0x1f: db/user@addr:port msg}.
 * Goes to stderr unless quiet, and to {@code logfile} when set (reopened on reload).
 * Verbosity follows {@code verbose}/{@code -v}: 0 = LOG and above, 1 = DEBUG, 2 = NOISE.
 */
public final class Log {
    private static final DateTimeFormatter TS =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS 'UTC'").withZone(ZoneOffset.UTC);
    private static final long PID = ProcessHandle.current().pid();

    private static volatile boolean toStderr = true;
    private static volatile int verbosity;
    private static volatile PrintStream file;

    private Log() {
    }

    public static synchronized void configure(boolean stderr, int verbose, Path logfile) throws IOException {
        toStderr = stderr;
        verbosity = verbose;
        reopen(logfile);
    }

    /** Opens (or reopens, after log rotation) the log file; null closes it. */
    public static synchronized void reopen(Path logfile) throws IOException {
        PrintStream old = file;
        file = logfile == null ? null
                : new PrintStream(new FileOutputStream(logfile.toFile(), true), true, StandardCharsets.UTF_8);
        if (old != null) {
            old.close();
        }
    }

    public static void verbosity(int v) {
        verbosity = v;
    }

    public static boolean debugEnabled() {
        return verbosity >= 1;
    }

    public static void info(String msg) {
        write("LOG", msg);
    }

    public static void warning(String msg) {
        write("WARNING", msg);
    }

    public static void error(String msg) {
        write("ERROR", msg);
    }

    public static void fatal(String msg) {
        write("FATAL", msg);
    }

    public static void debug(String msg) {
        if (verbosity >= 1) {
            write("DEBUG", msg);
        }
    }

    public static void noise(String msg) {
        if (verbosity >= 2) {
            write("NOISE", msg);
        }
    }

    /** A line about a client socket: {@code C-0x<id>: db/user@addr:port msg}. */
    public static void client(long id, String db, String user, String addr, int port, String msg) {
        write("LOG", prefix('C', id, db, user, addr, port) + msg);
    }

    public static void warningClient(long id, String db, String user, String addr, int port, String msg) {
        write("WARNING", prefix('C', id, db, user, addr, port) + msg);
    }

    /** A line about a server socket: {@code S-0x<id>: db/user@addr:port msg}. */
    public static void server(long id, String db, String user, String addr, int port, String msg) {
        write("LOG", prefix('S', id, db, user, addr, port) + msg);
    }

    static String prefix(char kind, long id, String db, String user, String addr, int port) {
        String host = addr != null && addr.indexOf(':') >= 0 ? "[" + addr + "]" : addr;
        return kind + "-0x" + Long.toHexString(id) + ": " + (db == null || db.isEmpty() ? "(nodb)" : db) + "/"
                + (user == null || user.isEmpty() ? "(nouser)" : user) + "@" + host + ":" + port + " ";
    }

    static String format(Instant at, long pid, String level, String msg) {
        return TS.format(at) + " [" + pid + "] " + level + " " + msg;
    }

    private static void write(String level, String msg) {
        String line = format(Instant.now(), PID, level, msg);
        if (toStderr) {
            System.err.println(line);
        }
        PrintStream f = file;
        if (f != null) {
            f.println(line);
        }
    }

    /** For tests: capture lines written to a stream. */
    static void writeTo(OutputStream out, String level, String msg) {
        new PrintStream(out, true, StandardCharsets.UTF_8).println(format(Instant.now(), PID, level, msg));
    }
}
