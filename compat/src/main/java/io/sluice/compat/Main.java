package io.sluice.compat;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of {@code sluice-compat}: {@code run} compares PgBouncer and Sluice on workloads,
 * {@code list} names the workloads. Exit codes: 0 done, 1 the comparison could not run, 2 usage.
 */
@Command(name = "sluice-compat", mixinStandardHelpOptions = true, version = "sluice-compat 0.1.0",
        description = "Side-by-side runs of PgBouncer and Sluice on the same pgbouncer.ini.",
        subcommands = {RunCommand.class, ListCommand.class})
public final class Main implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs the command line and returns the exit code (tests call this in-process). */
    public static int execute(String... args) {
        CommandLine cl = new CommandLine(new Main());
        cl.setExecutionExceptionHandler((e, line, parsed) -> {
            line.getErr().println("sluice-compat: " + e.getMessage());
            return 1;
        });
        return cl.execute(args);
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a command: run or list");
    }
}
