package io.sluice.migrate;

import io.sluice.config.ConfigSnapshot;
import io.sluice.config.userlist.AuthFile;
import io.sluice.config.userlist.AuthFileException;
import io.sluice.config.userlist.AuthFileParser;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sluice-migrate convert}: writes the Sluice config (to {@code -o} or stdout) and the
 * report (to stdout, or to stderr when the config goes to stdout).
 */
@Command(name = "convert", mixinStandardHelpOptions = true,
        description = {"Convert a pgbouncer.ini (with its %%include files and auth file) into a Sluice config "
                + "and report what changes: keys with another or no meaning in Sluice, deprecated keys, risky "
                + "combinations, recommended pressure settings."},
        footerHeading = "%nExit status:%n",
        footer = {"  0  converted", "  1  converted, but some settings could not be carried over (see report)",
                "  2  bad input (missing file, syntax error: file:line) or bad usage; nothing written"})
final class ConvertCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "PGBOUNCER_INI", description = "the PgBouncer config to convert")
    Path source;

    @Option(names = "--userlist", paramLabel = "FILE",
            description = "auth file to analyse instead of the config's auth_file")
    Path userlist;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "where to write the Sluice config (default: stdout, report then goes to stderr)")
    Path output;

    @Option(names = "--format", paramLabel = "text|json", defaultValue = "text",
            description = "report format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
    Format format;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Report formats. */
    enum Format { text, json }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Path wd = Path.of("").toAbsolutePath();
        Report report = new Report("sluice-migrate convert");
        String converted;
        try (LineProbe probe = new LineProbe()) {
            report.fact("source", source.toString());
            List<SourceLine> lines = new SourceReader(wd).read(source);
            Converter c = new Converter(report, probe);
            converted = c.convert(source.toString(), lines);
            report.fact("output", output == null ? "(stdout)" : output.toString());
            analyse(converted, wd, c, report);
        } catch (InputException e) {
            err.println("sluice-migrate: " + e.getMessage());
            err.flush();
            return Main.ERRORS;
        }
        try {
            if (output != null) {
                Files.writeString(output, converted, StandardCharsets.UTF_8);
            } else {
                out.print(converted);
                out.flush();
            }
        } catch (IOException e) {
            err.println("sluice-migrate: " + output + ": cannot write: " + e.getMessage());
            err.flush();
            return Main.ERRORS;
        }
        PrintWriter reportTo = output == null ? err : out;
        reportTo.print(format == Format.json ? report.json() : report.text());
        reportTo.flush();
        return report.count(Severity.ERROR) > 0 ? Main.WARNINGS : Main.OK;
    }

    /** Loads the result with Sluice's loader and applies the capacity and secret rules to it. */
    private void analyse(String converted, Path wd, Converter c, Report report) throws InputException {
        ConfigSnapshot snap = Analysis.loadConverted(converted, wd, report);
        report.fact("databases", Integer.toString(snap.databases().size())
                + (snap.fallback().isPresent() ? " + fallback *" : ""));
        report.fact("pool_mode", snap.poolMode().name().toLowerCase());
        Optional<AuthFile> auth = snap.authFile();
        if (userlist != null) {
            try {
                auth = Optional.of(AuthFileParser.read(wd.resolve(userlist), userlist.toString()));
            } catch (AuthFileException e) {
                throw new InputException(e.file(), e.line(), e.what());
            }
        }
        auth.ifPresent(a -> report.fact("auth file", a.source() + " (" + a.users().size() + " users)"));
        Analysis.secrets(snap, auth, report);
        List<PoolDemand> demand = PoolDemand.of(snap, auth.map(a -> a.users().keySet()).orElse(java.util.Set.of()));
        CapacityRules.applyConfigOnly(snap, demand, report);
    }
}
