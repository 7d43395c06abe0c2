package io.sluice.config.userlist;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A password or password hash from the auth file, classified like PgBouncer does.
 * {@link #toString()} hides the text so secrets do not end up in logs.
 */
public record Secret(Kind kind, String text) {

    /** Secret forms. */
    public enum Kind {
        /** Clear text: works for any backend method. */
        PLAIN,
        /** {@code md5} + md5hex(password || username). */
        MD5,
        /** {@code SCRAM-SHA-256$<iter>:<salt>$<storedkey>:<serverkey>}. */
        SCRAM
    }

    private static final Pattern MD5 = Pattern.compile("md5[0-9a-fA-F]{32}");

    public Secret {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(text, "text");
    }

    /** Classifies a secret text; a malformed SCRAM text counts as a plain password. */
    public static Secret of(String text) {
        if (ScramSecret.parse(text).isPresent()) {
            return new Secret(Kind.SCRAM, text);
        }
        if (MD5.matcher(text).matches()) {
            return new Secret(Kind.MD5, text);
        }
        return new Secret(Kind.PLAIN, text);
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
