package io.sluice.proto;

/**
 * An error (or notice) as the client sees it in an ErrorResponse/NoticeResponse.
 *
 * @param severity "ERROR", "FATAL", "NOTICE"...
 * @param detail   may be null
 */
public record PgError(String severity, String sqlState, String message, String detail) {
    public static PgError fatal(String sqlState, String message) {
        return new PgError("FATAL", sqlState, message, null);
    }

    public static PgError error(String sqlState, String message) {
        return new PgError("ERROR", sqlState, message, null);
    }

    public static PgError notice(String message, String detail) {
        return new PgError("NOTICE", "00000", message, detail);
    }
}
