package io.sluice.backend;

/** How one of the pooler's own queries on a server ended ({@link InternalQueries#runAnswered}). */
public enum QueryAnswer {
    /** Up to its ReadyForQuery without an error. */
    OK,
    /** Up to its ReadyForQuery with an error ({@link InternalQueries#lastError}). */
    ERROR,
    /** Not at all: the server went away or could not take it. */
    NONE
}
