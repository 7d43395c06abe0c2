package io.sluice.migrate;

import java.util.Objects;

/**
 * One line of a report.
 *
 * @param severity how much it matters
 * @param topic    short class of finding, e.g. {@code meaning}, {@code unsupported},
 *                 {@code deprecated}, {@code risky}, {@code capacity}, {@code secrets}
 * @param key      the setting or object concerned (may be empty)
 * @param where    {@code file:line} when the finding comes from a line (may be empty)
 * @param message  what is the case and what happens, in a sentence or two
 */
public record Finding(Severity severity, String topic, String key, String where, String message) {

    public Finding {
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(topic, "topic");
        key = key == null ? "" : key;
        where = where == null ? "" : where;
        Objects.requireNonNull(message, "message");
    }
}
