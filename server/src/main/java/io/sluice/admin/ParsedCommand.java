package io.sluice.admin;

/** What {@link AdminCommandParser} made of one console query. */
public sealed interface ParsedCommand {

    /**
     * {@code WORD [WORD]}: the command word (unquoted, case as typed; matched case-insensitively)
     * and its argument, {@code ""} when absent (PgBouncer does not tell the two apart).
     */
    record Command(String word, String arg) implements ParsedCommand {
    }

    /** {@code SET key = value} / {@code SET key TO value}, both unquoted. */
    record SetCommand(String key, String value) implements ParsedCommand {
    }

    /** The query is not valid console syntax; answer with this error. */
    record Invalid(AdminResult.AdminError error) implements ParsedCommand {
    }
}
