package io.sluice.runtime;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * PgBouncer's command line: {@code sluice [-d] [-R] [-q] [-v]... [-u user] [CONFIG_FILE]} with
 * the same short and long flags, {@code -V} and {@code -h}. Bad usage exits 1 as PgBouncer does.
 * {@code -R} is refused: Sluice has no online restart. Without CONFIG_FILE Sluice quick-starts
 * instead of failing (PgBouncer: "no configuration file specified").
 *
 * <p>Parsed as PgBouncer's getopt_long parses it, with glibc's words for bad usage (clustered
 * short flags, {@code -uNAME}, {@code --user=NAME}, unique prefixes of long names, options after
 * the file, {@code --}). Not picocli, which the other tools use: its first parse took about
 * 100 ms of the pooler's start, before the port opens.
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

    /** getopt_long's table; ambiguity messages list matches in its order (PgBouncer's: --verbose, --version). */
    private static final Map<String, Character> LONG = orderedLong();
    /** The options that take a value. */
    private static final String WITH_VALUE = "u";
    private static final char DAEMON_CHILD = '\0';
    /** getopt's short letters: the table's, the hidden long-only flag excepted. */
    private static final String SHORT = shortLetters();

    private static Map<String, Character> orderedLong() {
        Map<String, Character> m = new LinkedHashMap<>();
        m.put("quiet", 'q');
        m.put("verbose", 'v');
        m.put("user", 'u');
        m.put("version", 'V');
        m.put("daemon", 'd');
        m.put("reboot", 'R');
        m.put("help", 'h');
        m.put(DAEMON_CHILD_FLAG.substring(2), DAEMON_CHILD);
        return m;
    }

    private static String shortLetters() {
        StringBuilder letters = new StringBuilder();
        for (char c : LONG.values()) {
            if (c != DAEMON_CHILD) {
                letters.append(c);
            }
        }
        return letters.toString();
    }

    /** What the flags set, filled in by {@link #set}. */
    private static final class Flags {
        boolean daemon;
        boolean reboot;
        boolean quiet;
        int verbose;
        String user;
        boolean version;
        boolean help;
        boolean daemonChild;
        final List<String> files = new ArrayList<>();

        void set(char option, String value) {
            switch (option) {
                case 'd' -> daemon = true;
                case 'R' -> reboot = true;
                case 'q' -> quiet = true;
                case 'v' -> verbose++;
                case 'u' -> user = value;
                case 'V' -> version = true;
                case 'h' -> help = true;
                default -> daemonChild = true;
            }
        }
    }

    /** Bad usage, worded as glibc's getopt_long words it. */
    private static final class UsageError extends Exception {
        UsageError(String message) {
            super(message, null, false, false);
        }
    }

    /** Parses {@code args}; help, version and errors are printed here and become {@link CliOutcome.Exit}. */
    public static CliOutcome parse(String[] args, PrintStream out, PrintStream err) {
        Flags flags = new Flags();
        try {
            getopt(args, flags);
            if (flags.files.size() > 1) {
                throw new UsageError("more than one configuration file given: " + String.join(" ", flags.files));
            }
        } catch (UsageError e) {
            err.println(PROG + ": " + e.getMessage());
            err.println("Try \"" + PROG + " --help\" for more information.");
            err.flush();
            return new CliOutcome.Exit(1);
        }
        if (flags.help) {
            out.print(usage());
            out.flush();
            return new CliOutcome.Exit(0);
        }
        if (flags.version) {
            out.print(Version.versionText());
            out.flush();
            return new CliOutcome.Exit(0);
        }
        if (flags.reboot) {
            err.println(PROG + ": " + REBOOT_REFUSED);
            err.flush();
            return new CliOutcome.Exit(1);
        }
        Path config = flags.files.isEmpty() ? null : Path.of(flags.files.get(0));
        return new CliOutcome.Run(new CliOptions(
                flags.daemon, flags.quiet, flags.verbose, flags.user, config, flags.daemonChild));
    }

    /** GNU getopt_long with argument permutation: options may follow the file; "--" ends them. */
    private static void getopt(String[] args, Flags flags) throws UsageError {
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--")) {
                flags.files.addAll(List.of(args).subList(i + 1, args.length));
                return;
            } else if (arg.startsWith("--")) {
                i = longOption(args, i, flags);
            } else if (arg.startsWith("-") && arg.length() > 1) {
                i = shortOptions(args, i, flags);
            } else {
                flags.files.add(arg);
            }
        }
    }

    /** {@code --name}, {@code --name=value} or {@code --name value}; returns the last index used. */
    private static int longOption(String[] args, int i, Flags flags) throws UsageError {
        String arg = args[i];
        int eq = arg.indexOf('=');
        String name = arg.substring(2, eq < 0 ? arg.length() : eq);
        String full = LONG.containsKey(name) ? name : uniquePrefix(name, arg);
        char option = LONG.get(full);
        if (WITH_VALUE.indexOf(option) < 0) {
            if (eq >= 0) {
                throw new UsageError("option '--" + full + "' doesn't allow an argument");
            }
            flags.set(option, null);
            return i;
        }
        if (eq >= 0) {
            flags.set(option, arg.substring(eq + 1));
            return i;
        }
        if (i + 1 >= args.length) {
            throw new UsageError("option '--" + full + "' requires an argument");
        }
        flags.set(option, args[i + 1]);
        return i + 1;
    }

    private static String uniquePrefix(String name, String arg) throws UsageError {
        List<String> matches = LONG.keySet().stream().filter(n -> n.startsWith(name)).toList();
        if (matches.isEmpty()) {
            throw new UsageError("unrecognized option '" + arg + "'");
        }
        if (matches.size() > 1) {
            StringBuilder m = new StringBuilder("option '--" + name + "' is ambiguous; possibilities:");
            matches.forEach(n -> m.append(" '--").append(n).append('\''));
            throw new UsageError(m.toString());
        }
        return matches.get(0);
    }

    /** A cluster such as {@code -vvq} or {@code -du name}; returns the last index used. */
    private static int shortOptions(String[] args, int i, Flags flags) throws UsageError {
        String arg = args[i];
        for (int k = 1; k < arg.length(); k++) {
            char c = arg.charAt(k);
            if (SHORT.indexOf(c) < 0) {
                throw new UsageError("invalid option -- '" + c + "'");
            }
            if (WITH_VALUE.indexOf(c) < 0) {
                flags.set(c, null);
            } else if (k + 1 < arg.length()) {
                flags.set(c, arg.substring(k + 1));
                return i;
            } else if (i + 1 < args.length) {
                flags.set(c, args[i + 1]);
                return i + 1;
            } else {
                throw new UsageError("option requires an argument -- '" + c + "'");
            }
        }
        return i;
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
