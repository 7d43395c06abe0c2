package io.sluice.admin;

import java.util.concurrent.CompletionStage;

/**
 * The per-database control commands: PAUSE, RESUME, DISABLE, ENABLE, RECONNECT, KILL and
 * WAIT_CLOSE. Reached through {@link AdminContext#control()}; the same threading and validation
 * rules apply. {@code database} is null for "all databases".
 */
public interface DatabaseControl {
    /**
     * PAUSE: for all databases (null) sets the global pause mode; for one database marks it
     * paused. Completes when the affected server connections have been released and closed
     * (at once if there are none).
     */
    CompletionStage<Void> pause(String database);

    /** RESUME: null = leave PAUSE/SUSPEND (resuming sockets after SUSPEND); else unpause one database. */
    void resume(String database);

    /** DISABLE db: reject new client connections to it. */
    void disable(String database);

    /** ENABLE db: undo DISABLE. */
    void enable(String database);

    /** RECONNECT [db]: mark servers close_needed (null = all but the console's). */
    void reconnect(String database);

    /** KILL [db]: pause the database(s) and drop all their client and server connections now. */
    void kill(String database);

    /** WAIT_CLOSE [db]: completes when no server of the database(s) is close_needed any more. */
    CompletionStage<Void> waitClose(String database);
}
