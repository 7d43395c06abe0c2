package io.sluice.migrate;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code sluice-migrate}: the command a PgBouncer operator runs before switching to Sluice.
 * Subcommands {@code convert} and {@code check}; exit codes are listed in {@code --help}.
 */
@Command(name = "sluice-migrate", mixinStandardHelpOptions = true, versionProvider = Main.VersionText.class,
        description = "Move a PgBouncer setup to Sluice: convert its config, then check it against PostgreSQL.",
        subcommands = {ConvertCommand.class, CheckCommand.class, CommandLine.HelpCommand.class},
        footerHeading = "%nExit status:%n",
        footer = {"  0  ok", "  1  convert: written, but some settings were not carried over;"
                + " check: warnings", "  2  errors, bad input (missing file, syntax error: file:line) or bad usage"})
public final class Main implements Runnable {

    /** Exit status: nothing to report. */
    static final int OK = 0;
    /** Exit status: convert dropped settings / check found warnings. */
    static final int WARNINGS = 1;
    /** Exit status: errors, bad input or bad usage. */
    static final int ERRORS = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns the exit status (for tests). */
    public static int run(String... args) {
        CommandLine cl = new CommandLine(new Main());
        cl.setParameterExceptionHandler((ex, a) -> {
            ex.getCommandLine().getErr().println("sluice-migrate: " + ex.getMessage());
            ex.getCommandLine().getErr().println("Try 'sluice-migrate " + (ex.getCommandLine().getCommandName()
                    .equals("sluice-migrate") ? "" : ex.getCommandLine().getCommandName() + " ") + "--help'.");
            return ERRORS;
        });
        return cl.execute(args);
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required: convert or check");
    }

    /** Prints the tool's version (the Sluice version it ships with). */
    static final class VersionText implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            try (InputStream in = Main.class.getResourceAsStream(
                    "/META-INF/maven/io.sluice/sluice-migrate/pom.properties")) {
                if (in != null) {
                    Properties p = new Properties();
                    p.load(in);
                    return new String[] {"sluice-migrate " + p.getProperty("version", "(development build)")};
                }
            } catch (IOException ignored) {
                // fall through: --version must not fail
            }
            return new String[] {"sluice-migrate (development build)"};
        }
    }
}
