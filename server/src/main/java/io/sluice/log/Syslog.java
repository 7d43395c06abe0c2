package io.sluice.log;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The {@code syslog = 1} sink: each line at LOG and above as one datagram in the shape the C
 * library's {@code syslog(3)} sends to {@code /dev/log}, {@code <PRI>Mmm dd hh:mm:ss ident[pid]: message},
 * with PgBouncer's choices: the message is the line without time, pid and level word (syslog adds
 * its own), levels map as FATAL=crit, ERROR=err, WARNING=warning, LOG=info, DEBUG and NOISE are not
 * sent. Not thread-safe; {@link Log} calls it under its lock.
 */
public final class Syslog {
    /** Where the datagrams go; production sends to a unix datagram socket. */
    public interface Transport extends AutoCloseable {
        /** Sends one datagram whole, or throws. */
        void send(byte[] datagram) throws IOException;

        @Override
        void close();
    }

    /** syslog(3)'s {@code %h %e %T}: the day of the month padded with a space. */
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("MMM ppd HH:mm:ss", Locale.ROOT);

    private final String ident;
    private final int facility;
    private final Transport transport;

    /**
     * @param ident {@code syslog_ident}
     * @param facility the facility's code (LOG_DAEMON is 3)
     */
    public Syslog(String ident, int facility, Transport transport) {
        this.ident = ident;
        this.facility = facility;
        this.transport = transport;
    }

    /** Whether lines at this level are sent: PgBouncer sends LOG and above. */
    static boolean sends(Level level) {
        return level.minVerbose() == 0;
    }

    /** Sends one line; {@code message} is the line after the level word. */
    void send(Level level, String message, ZonedDateTime now, long pid) throws IOException {
        transport.send(datagram(level, message, now, pid));
    }

    byte[] datagram(Level level, String message, ZonedDateTime now, long pid) {
        int pri = facility * 8 + level.priority();
        String text = "<" + pri + ">" + TIME.format(now) + " " + ident + "[" + pid + "]: " + message;
        return text.getBytes(StandardCharsets.UTF_8);
    }

    void close() {
        transport.close();
    }
}
