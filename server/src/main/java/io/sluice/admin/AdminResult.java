package io.sluice.admin;

import java.util.List;
import java.util.Objects;

/**
 * One piece of the console's answer to a query. A query yields a list of these; the codec
 * encodes each in order and then sends ReadyForQuery, except after {@link Close}.
 *
 * <p>Cell values in a {@link RowSet} are {@code String}, {@code Integer}, {@code Long},
 * {@code java.math.BigDecimal}, {@code byte[]} or {@code null}; {@link AdminValues#toText} turns
 * them into DataRow text.
 */
public sealed interface AdminResult {

    /** One RowDescription field: name and type OID (see {@link PgType}). */
    record Column(String name, int typeOid) {
        public Column {
            Objects.requireNonNull(name, "name");
        }
    }

    /** RowDescription, one DataRow per row, then CommandComplete with {@code commandTag}. */
    record RowSet(List<Column> columns, List<List<Object>> rows, String commandTag) implements AdminResult {
        public RowSet {
            columns = List.copyOf(columns);
            // rows may hold nulls, so no List.copyOf on the inner lists
            rows = List.copyOf(rows);
            Objects.requireNonNull(commandTag, "commandTag");
        }
    }

    /** CommandComplete only. */
    record CommandDone(String tag) implements AdminResult {
        public CommandDone {
            Objects.requireNonNull(tag, "tag");
        }
    }

    /**
     * NoticeResponse with severity NOTICE and SQLSTATE 00000 (what PgBouncer sends for SHOW HELP
     * and "SET ignored"); {@code detail} is null when there is none.
     */
    record Notice(String message, String detail) implements AdminResult {
        public Notice {
            Objects.requireNonNull(message, "message");
        }
    }

    /** ErrorResponse with severity ERROR; the connection stays open (ReadyForQuery follows). */
    record AdminError(String sqlState, String message) implements AdminResult {
        public AdminError {
            Objects.requireNonNull(sqlState, "sqlState");
            Objects.requireNonNull(message, "message");
        }
    }

    /** No reply at all: the connection just closes (SHUTDOWN without argument). */
    record Close() implements AdminResult {
    }
}
