package io.sluice.log;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The process log in PgBouncer's line shape:
 * {@code 2026-11-30 10:37:27.600 UTC [1234] LOG C-0x1f: db/user@127.0.0.1:5000 message}.
 * The time is wall-clock time in the clock's zone with the zone's short name, as PgBouncer
 * prints local time with {@code %Z}.
 *
 * <p>Sinks: stderr unless quiet, {@code logfile} (append) when one is open, and syslog when
 * {@code syslog = 1} ({@link Syslog}); {@link #reopen(Path)} swaps the file on RELOAD/SIGHUP so
 * rotated logs are released, and {@link #setSyslog} swaps the syslog sink.
 *
 * <p>Threading: every method may be called from any thread. Level checks read one volatile
 * field, so a disabled DEBUG/NOISE call costs a compare; formatting and writing happen under
 * one lock so lines never interleave.
 */
public final class Log {
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS z", Locale.ROOT);
    private static final Log GLOBAL =
            new Log(Clock.systemDefaultZone(), ProcessHandle.current().pid(), System.err);
    private static final ThreadLocal<Boolean> MUTED = ThreadLocal.withInitial(() -> false);

    private final Clock clock;
    private final PrintStream stderr;
    private final Object lock = new Object();
    private volatile int verbose;
    private volatile int commandLineVerbose;
    private volatile boolean quiet;
    private volatile boolean journal;
    private volatile long pid;
    private OutputStream file; // guarded by lock
    private Path filePath; // guarded by lock
    private Syslog syslog; // guarded by lock
    private boolean syslogFailing; // guarded by lock; the failure was reported, until a send works

    /**
     * @param clock wall clock; its zone decides the printed time zone
     * @param pid the pid printed in brackets (the pid operators signal)
     * @param stderr where lines go unless quiet
     */
    public Log(Clock clock, long pid, PrintStream stderr) {
        this.clock = clock;
        this.pid = pid;
        this.stderr = stderr;
    }

    /**
     * Drops every line written from the current thread while set: the start-up warm-up runs a
     * private pooler of its own, whose lines are not about the one operators run.
     */
    public static void muteCurrentThread(boolean muted) {
        MUTED.set(muted);
    }

    /** The process-wide log that production code writes to; {@code Main} configures it. */
    public static Log global() {
        return GLOBAL;
    }

    /** {@code -v} count or the {@code verbose} setting: 0 = LOG and up, 1 = +DEBUG, 2 = +NOISE. */
    public void setVerbose(int verbose) {
        this.verbose = Math.max(0, verbose);
        this.commandLineVerbose = this.verbose;
    }

    /**
     * The {@code verbose} setting, at start and on every RELOAD: the more verbose of it and the
     * {@code -v} count given to {@link #setVerbose} wins, so a reload never silences {@code -v}.
     */
    public void applyConfigVerbose(int configured) {
        this.verbose = Math.max(commandLineVerbose, Math.max(0, configured));
    }

    public int verbose() {
        return verbose;
    }

    /** {@code -q} and daemon mode: no stderr output (the logfile still gets every line). */
    public void setQuiet(boolean quiet) {
        this.quiet = quiet;
    }

    /**
     * stderr is systemd journal's stream ({@code JOURNAL_STREAM}): lines go there as
     * {@code <priority>message}, without time, pid and level word, which journald keeps itself,
     * as PgBouncer built with systemd sends them (sd_journal_print), so {@code journalctl -p}
     * filters them by level.
     */
    public void setJournalStream(boolean journal) {
        this.journal = journal;
    }

    public void setPid(long pid) {
        this.pid = pid;
    }

    /**
     * Closes the current logfile (if any) and opens {@code logfile} for appending; {@code null}
     * just closes. On failure the log keeps writing to stderr only and the exception tells why.
     */
    public void reopen(Path logfile) throws IOException {
        synchronized (lock) {
            closeFileLocked();
            if (logfile != null) {
                // NIO's exceptions name the cause (NoSuchFileException, AccessDeniedException)
                file = java.nio.file.Files.newOutputStream(logfile, java.nio.file.StandardOpenOption.CREATE,
                        java.nio.file.StandardOpenOption.APPEND);
                filePath = logfile;
            }
        }
    }

    /** The logfile currently written, or null. */
    public Path logfile() {
        synchronized (lock) {
            return filePath;
        }
    }

    /** Closes the logfile and the syslog sink; later lines go to stderr only. */
    public void close() {
        synchronized (lock) {
            closeFileLocked();
            setSyslogLocked(null);
        }
    }

    /** Starts sending lines to {@code syslog}, or stops when null; closes the sink it replaces. */
    public void setSyslog(Syslog syslog) {
        synchronized (lock) {
            setSyslogLocked(syslog);
        }
    }

    public boolean enabled(Level level) {
        return verbose >= level.minVerbose();
    }

    public void log(Level level, String message) {
        if (!enabled(level)) {
            return;
        }
        write(level, message);
    }

    public void fatal(String message) {
        log(Level.FATAL, message);
    }

    public void error(String message) {
        log(Level.ERROR, message);
    }

    public void warning(String message) {
        log(Level.WARNING, message);
    }

    /** PgBouncer's {@code log_info}: printed as {@code LOG}. */
    public void info(String message) {
        log(Level.LOG, message);
    }

    public void debug(String message) {
        log(Level.DEBUG, message);
    }

    /** Builds the message only when DEBUG is on. */
    public void debug(Supplier<String> message) {
        if (enabled(Level.DEBUG)) {
            write(Level.DEBUG, message.get());
        }
    }

    public void noise(String message) {
        log(Level.NOISE, message);
    }

    /** Builds the message only when NOISE is on. */
    public void noise(Supplier<String> message) {
        if (enabled(Level.NOISE)) {
            write(Level.NOISE, message.get());
        }
    }

    /** A LOG line about a client: {@code C-0x<id>: db/user@addr:port message}. */
    public void client(long id, String db, String user, String addr, int port, String message) {
        client(Level.LOG, id, db, user, addr, port, message);
    }

    public void client(Level level, long id, String db, String user, String addr, int port, String message) {
        if (enabled(level)) {
            write(level, socketPrefix('C', id, db, user, addr, port) + message);
        }
    }

    /** A LOG line about a server connection: {@code S-0x<id>: db/user@addr:port message}. */
    public void server(long id, String db, String user, String addr, int port, String message) {
        server(Level.LOG, id, db, user, addr, port, message);
    }

    public void server(Level level, long id, String db, String user, String addr, int port, String message) {
        if (enabled(level)) {
            write(level, socketPrefix('S', id, db, user, addr, port) + message);
        }
    }

    /**
     * PgBouncer's disconnect line for a socket connected at {@code connectedAtMillis}: the reason and
     * the age at {@code nowMillis}, both read from the clock the connect time came from.
     */
    public static String closingBecause(String reason, long connectedAtMillis, long nowMillis) {
        return "closing because: " + reason + " (age=" + (nowMillis - connectedAtMillis) / 1000 + "s)";
    }

    /**
     * PgBouncer's line for a server connection made from {@code localAddr:localPort}, written once
     * the socket connects (before the login); over a unix socket it names no address.
     */
    public static String newServerConnection(boolean unix, String localAddr, int localPort) {
        return unix ? "new connection to server" : "new connection to server (from " + localAddr + ":" + localPort + ")";
    }

    /**
     * PgBouncer's socket prefix, including the trailing space. An unknown (null or empty) database or user prints
     * as {@code (nodb)} / {@code (nouser)}, as PgBouncer does before login completes.
     */
    public static String socketPrefix(char kind, long id, String db, String user, String addr, int port) {
        return kind + "-0x" + Long.toHexString(id) + ": "
                + (db == null || db.isEmpty() ? "(nodb)" : db) + "/"
                + (user == null || user.isEmpty() ? "(nouser)" : user)
                + "@" + addr + ":" + port + " ";
    }

    /** Formats one line (without the newline) as it would be written now. */
    public String format(Level level, String message) {
        return format(level, message, now());
    }

    private String format(Level level, String message, ZonedDateTime now) {
        return TIME.format(now) + " [" + pid + "] " + level.word() + " " + message;
    }

    private ZonedDateTime now() {
        ZoneId zone = clock.getZone();
        if (zone.equals(ZoneOffset.UTC)) {
            zone = ZoneId.of("UTC"); // "Z" would print otherwise; PgBouncer prints "UTC"
        }
        return ZonedDateTime.ofInstant(clock.instant(), zone);
    }

    private void write(Level level, String message) {
        if (MUTED.get()) {
            return;
        }
        synchronized (lock) {
            ZonedDateTime now = now();
            writeLocal(level, message, now);
            if (syslog != null && Syslog.sends(level)) {
                try {
                    syslog.send(level, message, now, pid);
                    syslogFailing = false;
                } catch (IOException e) {
                    // syslog(3) drops such lines silently; say so once in the other sinks instead
                    if (!syslogFailing) {
                        syslogFailing = true;
                        writeLocal(Level.WARNING, "could not write to syslog: " + e.getMessage(), now);
                    }
                }
            }
        }
    }

    private void writeLocal(Level level, String message, ZonedDateTime now) {
        if (!quiet) {
            stderr.println(stderrLine(level, message, now));
            stderr.flush();
        }
        if (file != null) {
            try {
                file.write((format(level, message, now) + "\n").getBytes(StandardCharsets.UTF_8));
                file.flush();
            } catch (IOException e) {
                // Like PgBouncer: a full disk must not take the pooler down; stderr still works.
                if (!quiet) {
                    stderr.println(stderrLine(Level.WARNING, "could not write to logfile: " + e.getMessage(), now));
                }
            }
        }
    }

    /** The line as stderr gets it: on journald's stream a {@code <priority>} prefix sets the entry's level. */
    private String stderrLine(Level level, String message, ZonedDateTime now) {
        return journal ? "<" + level.priority() + ">" + message : format(level, message, now);
    }

    private void setSyslogLocked(Syslog replacement) {
        if (syslog != null && syslog != replacement) {
            syslog.close();
        }
        syslog = replacement;
        syslogFailing = false;
    }

    private void closeFileLocked() {
        if (file != null) {
            try {
                file.close();
            } catch (IOException ignored) {
                // Closing an append stream fails only if the fd is already gone; nothing to do.
            }
            file = null;
            filePath = null;
        }
    }
}
