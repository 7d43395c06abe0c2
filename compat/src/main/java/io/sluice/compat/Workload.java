package io.sluice.compat;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;

/**
 * One named, versioned load definition: how many clients, how they connect, and the step each
 * client repeats until the run's deadline. The version changes whenever the step or the client
 * count changes meaning, so two reports of the same name and version measured the same thing.
 *
 * <p>Immutable; {@link Step} instances are created per client and used by that client's thread
 * only.
 *
 * @param name        the name given to {@code --workload}
 * @param version     bumped when the definition changes
 * @param description one line for {@code sluice-compat list} and the report
 * @param clients     clients wanted; the run's {@code --max-clients} caps it
 * @param mode        which database alias the clients use (transaction pool, session pool, admin console)
 * @param connectTimed true when connecting is part of the first measured step (a cold-pool herd)
 * @param jdbc        pgjdbc properties for the clients (query mode)
 * @param steps       makes the step for client {@code i} of {@code n}
 */
public record Workload(String name, int version, String description, int clients, Mode mode,
                       boolean connectTimed, Properties jdbc, StepFactory steps) {

    /** Which database the clients connect to. */
    public enum Mode { TRANSACTION_POOL, SESSION_POOL, ADMIN }

    /** Makes a client's step. */
    @FunctionalInterface
    public interface StepFactory {
        Step create(int client, int clients, Context context);
    }

    /**
     * One repetition. Returns true when the repetition's latency belongs in the histogram (a
     * mixed workload measures only its short transactions). Expected errors (a cancel, a
     * deliberate division by zero) are handled inside; any SQLException that escapes is counted
     * by SQLSTATE.
     */
    @FunctionalInterface
    public interface Step {
        boolean run(Connection c) throws SQLException;
    }

    /** What a step may need to know about the run. */
    public record Context(int pgbenchScale) {}

    /** "name v3". */
    public String label() {
        return name + " v" + version;
    }
}
