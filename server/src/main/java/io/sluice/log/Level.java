package io.sluice.log;

/**
 * Log levels with the words PgBouncer prints. {@link #minVerbose} is the {@code -v} count /
 * {@code verbose} setting a level needs: DEBUG needs 1, NOISE needs 2, the rest always print.
 * {@link #priority} is the syslog priority PgBouncer gives the level (syslog and the journal).
 */
public enum Level {
    FATAL("FATAL", 0, 2),
    ERROR("ERROR", 0, 3),
    WARNING("WARNING", 0, 4),
    LOG("LOG", 0, 6),
    DEBUG("DEBUG", 1, 7),
    NOISE("NOISE", 2, 7);

    private final String word;
    private final int minVerbose;
    private final int priority;

    Level(String word, int minVerbose, int priority) {
        this.word = word;
        this.minVerbose = minVerbose;
        this.priority = priority;
    }

    /** syslog's priority: crit, err, warning, info, debug. */
    public int priority() {
        return priority;
    }

    /** The word in the log line, e.g. {@code LOG}. */
    public String word() {
        return word;
    }

    public int minVerbose() {
        return minVerbose;
    }
}
