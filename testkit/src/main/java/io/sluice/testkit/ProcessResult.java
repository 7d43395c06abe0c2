package io.sluice.testkit;

import java.time.Duration;
import java.util.List;

/**
 * The outcome of one finished (or killed) external command.
 *
 * @param command  the command line as run
 * @param exitCode the exit code, or -1 if the command was killed on timeout
 * @param stdout   everything written to standard output
 * @param stderr   everything written to standard error
 * @param timedOut true if the hard timeout expired and the command was killed
 * @param elapsed  wall time from start to exit (or kill)
 */
public record ProcessResult(
        List<String> command, int exitCode, String stdout, String stderr, boolean timedOut, Duration elapsed) {

    public ProcessResult {
        command = List.copyOf(command);
    }

    /** True if the command exited by itself with code 0. */
    public boolean ok() {
        return !timedOut && exitCode == 0;
    }

    /**
     * Returns this result if {@link #ok()}.
     *
     * @throws AssertionError with the command, exit code and both outputs otherwise
     */
    public ProcessResult requireSuccess() {
        if (!ok()) {
            throw new AssertionError("command failed: " + describe());
        }
        return this;
    }

    /** stdout with surrounding whitespace removed: the value of a {@code psql -A -t} query. */
    public String out() {
        return stdout.strip();
    }

    /** One readable paragraph: command, how it ended, stdout and stderr. */
    public String describe() {
        String end = timedOut ? "killed after timeout of " + elapsed.toMillis() + " ms" : "exit " + exitCode;
        return String.join(" ", command) + " -> " + end + "\n--- stdout ---\n" + stdout + "\n--- stderr ---\n" + stderr;
    }
}
