package io.sluice.config.userlist;

import java.util.Objects;
import java.util.Optional;

/**
 * A password or password hash from the auth file or auth_query, classified like PgBouncer does
 * and, when it is a SCRAM verifier, parsed: once, here, so that a login reads its user's keys
 * without parsing the text again. {@link #toString()} hides the text so secrets do not end up in
 * logs. Immutable.
 */
public final class Secret {

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

    private final Kind kind;
    private final String text;
    /** The parsed verifier when kind is SCRAM, else null. */
    private final ScramSecret scram;

    private Secret(Kind kind, String text, ScramSecret scram) {
        this.kind = kind;
        this.text = text;
        this.scram = scram;
    }

    /** Classifies a secret text; a malformed md5 or SCRAM text counts as a plain password. */
    public static Secret of(String text) {
        Objects.requireNonNull(text, "text");
        if (isMd5(text)) {
            return new Secret(Kind.MD5, text, null);
        }
        ScramSecret scram = ScramSecret.parse(text).orElse(null);
        return new Secret(scram == null ? Kind.PLAIN : Kind.SCRAM, text, scram);
    }

    /** The form of {@code text}, as {@link #of} classifies it; null counts as plain. */
    public static Kind kindOf(String text) {
        return text == null ? Kind.PLAIN : of(text).kind();
    }

    public Kind kind() {
        return kind;
    }

    /** The stored text: the password itself, the md5 hash or the SCRAM verifier. */
    public String text() {
        return text;
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
        return Optional.ofNullable(scram);
    }

    /** Equal when the texts are: kind and parsed form follow from the text. */
    @Override
    public boolean equals(Object o) {
        return o instanceof Secret s && s.text.equals(text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public String toString() {
        return "Secret[" + kind + "]";
    }
}
