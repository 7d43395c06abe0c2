package io.sluice.auth;

import java.util.List;

/**
 * Reads what auth_query answered, as PgBouncer's handle_auth_query_response(): exactly two
 * columns (user name, secret); a row names the user (the last row wins); no row, or a null
 * user name, means no such user; a null secret means the user exists but no password will
 * ever match. Not thread-safe; one per query.
 */
public final class AuthQueryReply {
    /** What the query established. */
    public sealed interface Outcome {}

    /** @param secret "" when the query returned NULL (no password accepted) */
    public record Found(String user, String secret) implements Outcome {}

    public record NotFound() implements Outcome {}

    /** The answer was unusable; {@code reason} is PgBouncer's server close reason. */
    public record Failed(String reason) implements Outcome {}

    private String user;
    private String secret;
    private String failure;

    /** RowDescription: the number of columns. */
    public void columns(int count) {
        if (count != 2) {
            fail("expected 2 columns from auth_query, not " + count);
        }
    }

    /** DataRow: the values as text, SQL NULL as null. */
    public void row(List<String> values) {
        if (values.size() != 2) {
            fail("expected 2 columns from auth_query, not " + values.size());
        } else if (values.get(0) != null) {
            user = values.get(0);
            secret = values.get(1) == null ? "" : values.get(1);
        }
    }

    /** ErrorResponse from the server. */
    public void error() {
        fail("error response from auth_query");
    }

    /** A message that has no place in an extended-query answer. */
    public void unexpected() {
        fail("unexpected response from auth_query");
    }

    public boolean failed() {
        return failure != null;
    }

    public Outcome outcome() {
        if (failure != null) {
            return new Failed(failure);
        }
        return user == null ? new NotFound() : new Found(user, secret);
    }

    private void fail(String reason) {
        if (failure == null) {
            failure = reason;
        }
    }
}
