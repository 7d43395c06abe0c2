package io.sluice.log;

/**
 * Log levels with the words PgBouncer prints. {@link #minVerbose} is the {@code -v} count /
 * {@code verbose} setting a level needs: DEBUG needs 1, NOISE needs 2, the rest always print.
 */
public enum Level {
    FATAL("FATAL", 0),
    ERROR("ERROR", 0),
    WARNING("WARNING", 0),
    LOG("LOG", 0),
    DEBUG("DEBUG", 1),
    NOISE("NOISE", 2);

    private final String word;
    private final int minVerbose;

    Level(String word, int minVerbose) {
        this.word = word;
        this.minVerbose = minVerbose;
    }

    /** The word in the log line, e.g. {@code LOG}. */
    public String word() {
        return word;
    }

    public int minVerbose() {
        return minVerbose;
    }
}
