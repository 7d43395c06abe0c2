package io.sluice.runtime;

import java.io.PrintStream;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * PgBouncer's command line: {@code sluice [-d] [-R] [-q] [-v]... [-u user] [CONFIG_FILE]} with
 * the same short and long flags, {@code -V} and {@code -h}. Bad usage exits 1 as PgBouncer does
 * (not picocli's 2). {@code -R} is refused: Sluice has no online restart. Without CONFIG_FILE
 * Sluice quick-starts instead of failing (PgBouncer: "no configuration file specified").
 */
public final class Cli {
    /** Hidden flag marking the detached child that {@code -d} starts; never typed by people. */
    public static final String DAEMON_CHILD_FLAG = "--sluice-daemon-child";

    /**
     * How to restart without dropping clients, where -R or SUSPEND would be PgBouncer's way: a JVM
     * cannot take over another process's sockets soundly, so Sluice uses so_reuseport instead.
     */
    public static final String RESTART_RECIPE = "to restart without dropping clients, start the new process on the"
            + " same port with so_reuseport = 1, then stop the old one with SHUTDOWN WAIT_FOR_CLIENTS or SIGTERM"
            + " (docs/restarts.md)";

    public static final String REBOOT_REFUSED =
            "-R/--reboot (online restart) is not supported by Sluice; " + RESTART_RECIPE;

    private static final String PROG = "sluice";

    private Cli() {}

    @Command(name = PROG)
    static final class Spec {
        @Option(names = {"-d", "--daemon"})
        boolean daemon;

        @Option(names = {"-R", "--reboot"})
        boolean reboot;

        @Option(names = {"-q", "--quiet"})
        boolean quiet;

        @Option(names = {"-v", "--verbose"})
        boolean[] verbose = new boolean[0];

        @Option(names = {"-u", "--user"}, paramLabel = "USERNAME")
        String user;

        @Option(names = {"-V", "--version"})
        boolean version;

        @Option(names = {"-h", "--help"})
        boolean help;

        @Option(names = DAEMON_CHILD_FLAG, hidden = true)
        boolean daemonChild;

        @Parameters(arity = "0..1", paramLabel = "CONFIG_FILE")
        Path config;
    }

    /** Parses {@code args}; help, version and errors are printed here and become {@link CliOutcome.Exit}. */
    public static CliOutcome parse(String[] args, PrintStream out, PrintStream err) {
        Spec spec = new Spec();
        CommandLine cl = new CommandLine(spec);
        cl.setPosixClusteredShortOptionsAllowed(true);
        cl.setUnmatchedOptionsArePositionalParams(false);
        try {
            cl.parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            err.println(PROG + ": " + e.getMessage());
            err.println("Try \"" + PROG + " --help\" for more information.");
            err.flush();
            return new CliOutcome.Exit(1);
        }
        if (spec.help) {
            out.print(usage());
            out.flush();
            return new CliOutcome.Exit(0);
        }
        if (spec.version) {
            out.print(Version.versionText());
            out.flush();
            return new CliOutcome.Exit(0);
        }
        if (spec.reboot) {
            err.println(PROG + ": " + REBOOT_REFUSED);
            err.flush();
            return new CliOutcome.Exit(1);
        }
        return new CliOutcome.Run(new CliOptions(
                spec.daemon, spec.quiet, spec.verbose.length, spec.user, spec.config, spec.daemonChild));
    }

    /** The {@code -h} text, laid out like PgBouncer's. */
    public static String usage() {
        return PROG + " is a connection pooler for PostgreSQL, compatible with PgBouncer "
                + Version.PGBOUNCER_COMPAT + ".\n\n"
                + "Usage:\n"
                + "  " + PROG + " [OPTION]... CONFIG_FILE\n"
                + "  " + PROG + " [OPTION]...              (no CONFIG_FILE: quick start with an embedded\n"
                + "                                  PostgreSQL, listening on 127.0.0.1:6432)\n"
                + "\nOptions:\n"
                + "  -d, --daemon         run in background (as a daemon)\n"
                + "  -q, --quiet          run quietly\n"
                + "  -R, --reboot         not supported: use so_reuseport (docs/restarts.md)\n"
                + "  -u, --user=USERNAME  assume identity of USERNAME\n"
                + "  -v, --verbose        increase verbosity\n"
                + "  -V, --version        show version, then exit\n"
                + "  -h, --help           show this help, then exit\n"
                + "\n";
    }
}
