package io.sluice.config.ini;

/**
 * One meaningful line of an ini file after includes are expanded: a section header
 * ({@code value == null}) or a {@code key = value} pair. {@code file}/{@code line} say where
 * it was written, for error messages.
 *
 * @param file  file name as given (top-level path or the {@code %include} argument)
 * @param line  1-based line number
 * @param name  section name (as written) or key (unquoted if it was double-quoted)
 * @param value trimmed value, or null for a section header
 */
public record IniLine(String file, int line, String name, String value) {

    /** True for a {@code [section]} line. */
    public boolean isSection() {
        return value == null;
    }
}
