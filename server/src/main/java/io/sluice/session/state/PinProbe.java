package io.sluice.session.state;

import java.util.ArrayList;
import java.util.List;

/**
 * What the server reports about session state that cannot move to another server: channels
 * it listens on, temporary relations, session-level advisory locks held, WITH HOLD cursors.
 * Asked with {@link #SQL} after a transaction whose statements may have changed any of them
 * (exact where the tokenizer can only guess); while any count is above zero the client keeps
 * its server.
 */
public record PinProbe(long listens, long temporaryRelations, long advisoryLocks, long holdCursors) {
    /** One row, four counts. Transaction-level advisory locks are gone by the time it runs. */
    public static final String SQL = "SELECT (SELECT count(*) FROM pg_catalog.pg_listening_channels()),"
            + " (SELECT count(*) FROM pg_catalog.pg_class WHERE relnamespace = pg_catalog.pg_my_temp_schema()),"
            + " (SELECT count(*) FROM pg_catalog.pg_locks WHERE locktype = 'advisory'"
            + " AND pid = pg_catalog.pg_backend_pid() AND granted),"
            + " (SELECT count(*) FROM pg_catalog.pg_cursors WHERE is_holdable)";

    /** When the answer cannot be read: pin, rather than lose state. */
    public static final PinProbe UNKNOWN = new PinProbe(-1, -1, -1, -1);

    public static final PinProbe NONE = new PinProbe(0, 0, 0, 0);

    /** The probe's row as text values; anything unexpected reads as {@link #UNKNOWN}. */
    public static PinProbe of(List<String> row) {
        if (row == null || row.size() != 4) {
            return UNKNOWN;
        }
        try {
            return new PinProbe(Long.parseLong(row.get(0)), Long.parseLong(row.get(1)),
                    Long.parseLong(row.get(2)), Long.parseLong(row.get(3)));
        } catch (NumberFormatException | NullPointerException e) {
            return UNKNOWN;
        }
    }

    public boolean pinned() {
        return listens != 0 || temporaryRelations != 0 || advisoryLocks != 0 || holdCursors != 0;
    }

    /** For the console and logs, e.g. "listen=1 temp=2". */
    public String describe() {
        if (this.equals(UNKNOWN)) {
            return "unknown";
        }
        List<String> parts = new ArrayList<>(4);
        if (listens > 0) {
            parts.add("listen=" + listens);
        }
        if (temporaryRelations > 0) {
            parts.add("temp=" + temporaryRelations);
        }
        if (advisoryLocks > 0) {
            parts.add("advisory_locks=" + advisoryLocks);
        }
        if (holdCursors > 0) {
            parts.add("hold_cursors=" + holdCursors);
        }
        return String.join(" ", parts);
    }
}
