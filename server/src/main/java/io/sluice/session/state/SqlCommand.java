package io.sluice.session.state;

/**
 * What one SQL statement does to session state that outlives its transaction, as far as the
 * pooler cares. {@code name}/{@code value} depend on the kind: a parameter and its value text
 * (SET), a parameter (RESET), a savepoint name, or a prepared statement's name with the whole
 * PREPARE text as {@code value}. {@code nameStart}/{@code nameEnd} locate the name in the
 * message text (DEALLOCATE of a protocol-level name is rewritten there). {@code probe}: the
 * statement may create or drop state that pins a client to its server (LISTEN, temporary
 * tables, session advisory locks, WITH HOLD cursors), so the server is asked afterwards.
 */
public record SqlCommand(Kind kind, String name, String value, boolean probe, int nameStart, int nameEnd) {
    /** The kinds the pooler acts on; everything else is {@link #OTHER}. */
    public enum Kind {
        OTHER(null),
        /** SET [SESSION] name TO value. */
        SET("SET"),
        /** RESET name, or SET name TO DEFAULT. */
        RESET("RESET", "SET"),
        RESET_ALL("RESET"),
        /** Changes session state in a way the pooler cannot replay (set_config(.., false)...): pins. */
        UNSURE(null),
        BEGIN(),
        /** COMMIT or END; a failed transaction's COMMIT answers ROLLBACK. */
        COMMIT("COMMIT", "ROLLBACK"),
        ROLLBACK("ROLLBACK"),
        SAVEPOINT("SAVEPOINT"),
        ROLLBACK_TO("ROLLBACK"),
        RELEASE("RELEASE"),
        PREPARE("PREPARE"),
        DEALLOCATE("DEALLOCATE"),
        DEALLOCATE_ALL("DEALLOCATE ALL"),
        DISCARD_ALL("DISCARD ALL");

        private final String[] tags;

        Kind(String... tags) {
            this.tags = tags;
        }

        /**
         * Whether a CommandComplete tag is what this kind answers. A mismatch means the
         * statements were not split or classified as the server did, and nothing derived from
         * them can be trusted.
         */
        public boolean matches(String tag) {
            if (tags == null || tags.length == 0 || tags[0] == null) {
                return true;
            }
            for (String t : tags) {
                if (tag.equals(t)) {
                    return true;
                }
            }
            return false;
        }
    }

    public static final SqlCommand NONE = new SqlCommand(Kind.OTHER, null, null, false, -1, -1);
    public static final SqlCommand NONE_PROBE = new SqlCommand(Kind.OTHER, null, null, true, -1, -1);

    static SqlCommand of(Kind kind, boolean probe) {
        return new SqlCommand(kind, null, null, probe, -1, -1);
    }

    static SqlCommand named(Kind kind, String name, String value) {
        return new SqlCommand(kind, name, value, false, -1, -1);
    }

    /** Nothing the pooler tracks and nothing to probe for: the hot path. */
    public boolean inert() {
        return kind == Kind.OTHER && !probe;
    }
}
