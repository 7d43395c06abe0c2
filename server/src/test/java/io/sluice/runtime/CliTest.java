package io.sluice.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class CliTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private CliOutcome parse(String... args) {
        return Cli.parse(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private CliOptions run(String... args) {
        CliOutcome o = parse(args);
        assertThat(o).isInstanceOf(CliOutcome.Run.class);
        return ((CliOutcome.Run) o).options();
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void configOnly() {
        assertThat(run("pgbouncer.ini")).isEqualTo(
                new CliOptions(false, false, 0, null, Path.of("pgbouncer.ini"), false));
    }

    @Test
    void noConfigMeansQuickStart() {
        assertThat(run().config()).isNull();
        assertThat(run("-v").configFile()).isEmpty();
    }

    @Test
    void shortAndLongFlags() {
        assertThat(run("-d", "x.ini").daemon()).isTrue();
        assertThat(run("--daemon", "x.ini").daemon()).isTrue();
        assertThat(run("-q", "x.ini").quiet()).isTrue();
        assertThat(run("--quiet", "x.ini").quiet()).isTrue();
        assertThat(run("-u", "postgres", "x.ini").user()).isEqualTo("postgres");
        assertThat(run("--user", "postgres", "x.ini").user()).isEqualTo("postgres");
        assertThat(run("--user=postgres", "x.ini").user()).isEqualTo("postgres");
        assertThat(run("-upostgres", "x.ini").user()).isEqualTo("postgres");
        assertThat(run("-v", "x.ini").verbose()).isEqualTo(1);
        assertThat(run("--verbose", "--verbose", "x.ini").verbose()).isEqualTo(2);
    }

    @Test
    void verboseCountsAndClusters() {
        CliOptions o = run("-vvv", "-dq", "x.ini");
        assertThat(o.verbose()).isEqualTo(3);
        assertThat(o.daemon()).isTrue();
        assertThat(o.quiet()).isTrue();
        assertThat(run("-v", "x.ini", "-v").verbose()).isEqualTo(2);
        assertThat(run("-du", "pgb", "x.ini").user()).isEqualTo("pgb");
    }

    @Test
    void daemonChildFlagIsHiddenButParsed() {
        assertThat(run(Cli.DAEMON_CHILD_FLAG, "x.ini").daemonChild()).isTrue();
        parse("-h");
        assertThat(out()).doesNotContain(Cli.DAEMON_CHILD_FLAG);
    }

    @Test
    void rebootIsRefusedWithExit1() {
        for (String flag : new String[] {"-R", "--reboot"}) {
            err.reset();
            assertThat(parse(flag, "x.ini")).isEqualTo(new CliOutcome.Exit(1));
            assertThat(err()).isEqualTo("sluice: -R/--reboot (online restart) is not supported by Sluice;"
                    + " to restart without dropping clients, start the new process on the same port with"
                    + " so_reuseport = 1, then stop the old one with SHUTDOWN WAIT_FOR_CLIENTS or SIGTERM"
                    + " (docs/restarts.md)\n");
        }
    }

    @Test
    void unknownFlagExits1WithHint() {
        assertThat(parse("--bogus", "x.ini")).isEqualTo(new CliOutcome.Exit(1));
        assertThat(err()).contains("--bogus").endsWith("Try \"sluice --help\" for more information.\n");
        err.reset();
        assertThat(parse("-x")).isEqualTo(new CliOutcome.Exit(1));
        assertThat(parse("-u")).isEqualTo(new CliOutcome.Exit(1)); // missing value
        assertThat(parse("a.ini", "b.ini")).isEqualTo(new CliOutcome.Exit(1));
    }

    /** The words of Debian's pgbouncer 1.18 (glibc's getopt_long) for the same command lines. */
    @Test
    void badUsageIsWordedAsPgbouncersGetopt() {
        assertUsageError(List.of("--bogus", "x.ini"), "unrecognized option '--bogus'");
        assertUsageError(List.of("--bogus=1"), "unrecognized option '--bogus=1'");
        assertUsageError(List.of("-x"), "invalid option -- 'x'");
        assertUsageError(List.of("-qx", "x.ini"), "invalid option -- 'x'");
        assertUsageError(List.of("-u"), "option requires an argument -- 'u'");
        assertUsageError(List.of("--user"), "option '--user' requires an argument");
        assertUsageError(List.of("--ver"), "option '--ver' is ambiguous; possibilities: '--verbose' '--version'");
        assertUsageError(List.of("--daemon=1", "x.ini"), "option '--daemon' doesn't allow an argument");
        assertUsageError(List.of("a.ini", "b.ini"), "more than one configuration file given: a.ini b.ini");
    }

    private void assertUsageError(List<String> args, String message) {
        err.reset();
        assertThat(parse(args.toArray(String[]::new))).as(String.join(" ", args)).isEqualTo(new CliOutcome.Exit(1));
        assertThat(err()).isEqualTo("sluice: " + message + "\nTry \"sluice --help\" for more information.\n");
    }

    @Test
    void longNamesMayBeShortenedAndOptionsFollowTheFile() {
        assertThat(run("--verb", "--qu", "x.ini").verbose()).isEqualTo(1);
        assertThat(run("--us=pgb", "x.ini").user()).isEqualTo("pgb");
        assertThat(run("x.ini", "--daemon").daemon()).isTrue();
        assertThat(run("--", "-x.ini").config()).isEqualTo(Path.of("-x.ini"));
        assertThat(run("-u", "-v", "x.ini")).as("a value that looks like a flag")
                .isEqualTo(new CliOptions(false, false, 0, "-v", Path.of("x.ini"), false));
    }

    @Test
    void versionShortAndLong() {
        for (String flag : new String[] {"-V", "--version"}) {
            out.reset();
            assertThat(parse(flag)).isEqualTo(new CliOutcome.Exit(0));
            String[] lines = out().split("\n");
            assertThat(lines[0]).matches("Sluice \\S.* \\(PgBouncer 1\\.25\\.2 compatible\\)");
            assertThat(lines[1]).matches("netty 4\\.\\d+\\.\\d+\\.Final");
        }
    }

    @Test
    void helpShortAndLong() {
        for (String flag : new String[] {"-h", "--help"}) {
            out.reset();
            assertThat(parse(flag, "x.ini")).isEqualTo(new CliOutcome.Exit(0));
            assertThat(out()).contains("Usage:\n  sluice [OPTION]... CONFIG_FILE\n")
                    .contains("  -d, --daemon         run in background (as a daemon)\n")
                    .contains("  -q, --quiet          run quietly\n")
                    .contains("  -u, --user=USERNAME  assume identity of USERNAME\n")
                    .contains("  -v, --verbose        increase verbosity\n")
                    .contains("  -V, --version        show version, then exit\n")
                    .contains("  -h, --help           show this help, then exit\n");
        }
    }
}
