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
 *     {@code malformed SCRAM message (attribute "r" expected)}); never contains secrets
 */
public record AuthFailure(String sqlState, String message, String detail) {
    public static final String PROTOCOL_VIOLATION = "08P01";
    public static final String INVALID_PASSWORD = "28P01";

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
