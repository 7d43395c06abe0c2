package io.sluice.auth;

import java.util.List;

/**
 * Reads what auth_query answered, as PgBouncer's handle_auth_query_response(): exactly two
 * columns (user name, secret); a row names the user (the last row wins); no row means no such
 * user; a null secret means the user exists but no password will ever match. A null user name
 * makes the answer unusable, as in PgBouncer's code (its documentation calls it "no such user",
 * but 1.18 through 1.25 refuse it; the documented record-returning lookup function returns such
 * a row for every unknown user). Not thread-safe; one per query.
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
    private boolean broken;

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
        } else if (values.get(0) == null) {
            fail("auth_query response contained null user name");
        } else {
            user = values.get(0);
            secret = values.get(1) == null ? "" : values.get(1);
        }
    }

    /** ErrorResponse from the server. */
    public void error() {
        fail("error response from auth_query");
    }

    /**
     * A message that has no place in an extended-query answer: unlike the failures above, the
     * server's protocol state is unknown now, so it cannot go back to the pool.
     */
    public void unexpected() {
        fail("unexpected response from auth_query");
        broken = true;
    }

    public boolean failed() {
        return failure != null;
    }

    /** True when the server must be closed rather than returned after its ReadyForQuery. */
    public boolean broken() {
        return broken;
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
