package io.sluice.runtime;

/** Result of parsing the command line: run with options, or exit now with a code. */
public sealed interface CliOutcome {
    record Run(CliOptions options) implements CliOutcome {}

    record Exit(int code) implements CliOutcome {}
}
