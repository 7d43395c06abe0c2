package io.sluice.config.userlist;

import java.util.Objects;
import java.util.Optional;

/**
 * A password or password hash from the auth file, classified like PgBouncer does.
 * {@link #toString()} hides the text so secrets do not end up in logs.
 */
public record Secret(Kind kind, String text) {

    /**
     * The three forms a stored secret (userlist.txt, auth_query, [users] password) can take,
     * recognised the way PgBouncer's get_password_type() does. The one classification: the
     * auth layer, server logins and sluice-migrate all ask {@link #kindOf}.
     */
    public enum Kind {
        /** The password itself. Works for every method. */
        PLAIN,
        /** {@code "md5" + md5hex(password + user)}: exactly 35 chars, lowercase hex. */
        MD5,
        /** {@code SCRAM-SHA-256$<iter>:<salt>$<storedkey>:<serverkey>} that parses. */
        SCRAM
    }

    private static final int MD5_LEN = 35;

    public Secret {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(text, "text");
    }

    /** Classifies a secret text; a malformed md5 or SCRAM text counts as a plain password. */
    public static Secret of(String text) {
        return new Secret(kindOf(text), text);
    }

    /** The form of {@code text}; null counts as plain. */
    public static Kind kindOf(String text) {
        if (isMd5(text)) {
            return Kind.MD5;
        }
        if (text != null && ScramSecret.parse(text).isPresent()) {
            return Kind.SCRAM;
        }
        return Kind.PLAIN;
    }

    /** True for {@code "md5"} followed by 32 lowercase hex digits, the form PostgreSQL stores. */
    public static boolean isMd5(String text) {
        if (text == null || text.length() != MD5_LEN || !text.startsWith("md5")) {
            return false;
        }
        for (int i = 3; i < MD5_LEN; i++) {
            char c = text.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                return false;
            }
        }
        return true;
    }

    /** The parsed SCRAM secret when {@link #kind()} is SCRAM. */
    public Optional<ScramSecret> scram() {
        return kind == Kind.SCRAM ? ScramSecret.parse(text) : Optional.empty();
    }

    @Override
    public String toString() {
        return "Secret[" + kind + "]";
    }
}
