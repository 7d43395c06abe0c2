package io.sluice.auth;

/**
 * Why an authentication exchange failed, as data the session layer turns into an
 * ErrorResponse and a log line.
 *
 * @param sqlState SQLSTATE in PostgreSQL's classification: {@value #PROTOCOL_VIOLATION} for a
 *     malformed or out-of-protocol message, {@value #INVALID_PASSWORD} for wrong credentials
 * @param message the primary message PostgreSQL would send ("malformed SCRAM message" or
 *     {@code password authentication failed for user "x"})
 * @param detail the specific reason, worded like PgBouncer's log line (e.g.
 *     {@code malformed SCRAM message (attribute "r" expected)}); never contains secrets. For
 *     a {@code postgresWords} failure, PostgreSQL's DETAIL (may be null)
 * @param postgresWords the client is told {@code message} and {@code detail} as PostgreSQL
 *     words them, instead of PgBouncer's generic text: channel binding, which PgBouncer does
 *     not offer, so PostgreSQL is the only reference clients know; and an invalid mechanism,
 *     where PgBouncer sends PostgreSQL's words itself
 */
public record AuthFailure(String sqlState, String message, String detail, boolean postgresWords) {
    public static final String PROTOCOL_VIOLATION = "08P01";
    public static final String INVALID_PASSWORD = "28P01";
    public static final String INVALID_AUTHORIZATION = "28000";

    public AuthFailure(String sqlState, String message, String detail) {
        this(sqlState, message, detail, false);
    }

    /** A refusal in PostgreSQL's words (auth-scram.c), sent to the client as such. */
    public static AuthFailure postgres(String sqlState, String message, String detail) {
        return new AuthFailure(sqlState, message, detail, true);
    }

    /**
     * What PgBouncer 1.25.2 itself sends the client (SQLSTATE 08P01) whenever a SCRAM exchange
     * fails, for any of the reasons above; also its {@code closing because:} log reason.
     */
    public static final String PGBOUNCER_SASL_REASON = "SASL authentication failed";

    /** What PgBouncer sends (and logs as the closing reason) when md5/cleartext auth fails. */
    public static final String PGBOUNCER_PASSWORD_REASON = "password authentication failed";

    public static AuthFailure malformed(String detail) {
        return new AuthFailure(PROTOCOL_VIOLATION, "malformed SCRAM message", detail);
    }

    public static AuthFailure protocol(String detail) {
        return new AuthFailure(PROTOCOL_VIOLATION, detail, detail);
    }

    public static AuthFailure wrongPassword(String user, String detail) {
        return new AuthFailure(INVALID_PASSWORD,
                "password authentication failed for user \"" + user + "\"", detail);
    }

    public boolean isWrongPassword() {
        return INVALID_PASSWORD.equals(sqlState);
    }
}
