package io.sluice.migrate;

/**
 * One physical line of a pgbouncer.ini after {@code %include}s are expanded, comments kept.
 *
 * @param file    file name as given (top-level path or the {@code %include} argument)
 * @param line    1-based line number in that file
 * @param text    the line as written, without the line break
 * @param kind    what the line is
 * @param section lower-case section the line belongs to ({@code ""} before the first header)
 * @param key     the key of a KEY line (as written), the file of an INCLUDE line, else null
 * @param value   the trimmed value of a KEY line, else null
 * @param depth   include depth, 0 for the top-level file
 */
public record SourceLine(String file, int line, String text, Kind kind, String section, String key,
                         String value, int depth) {

    /** Line kinds. */
    public enum Kind { BLANK, COMMENT, SECTION, KEY, INCLUDE_BEGIN, INCLUDE_END }

    /** {@code file:line}, as error messages and reports name a place. */
    public String where() {
        return file + ":" + line;
    }
}
