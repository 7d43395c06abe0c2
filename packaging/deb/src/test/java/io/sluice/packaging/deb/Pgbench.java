package io.sluice.packaging.deb;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.testkit.PgBinaries;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** pgbench from this machine against a pooler in the throwaway root (it shares the network): one SELECT per transaction. */
final class Pgbench {
    private Pgbench() {}

    /** Starts {@code pgbench -n -f <SELECT 1> args... db} in the background, its clients named {@code appName}. */
    static CompletableFuture<ProcessResult> start(String appName, int port, String user, String password, String db,
                                                  String... args) {
        Path script = Built.TARGET.resolve("select1.sql");
        try {
            Files.writeString(script, "SELECT 1;\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> cmd = new ArrayList<>(List.of(PgBinaries.tool("pgbench"), "-n", "-f", script.toString(),
                "-h", "127.0.0.1", "-p", Integer.toString(port), "-U", user));
        cmd.addAll(List.of(args));
        cmd.add(db);
        ProcessRunner r = ProcessRunner.of(cmd).timeout(Duration.ofMinutes(2)).env("PGPASSWORD", password)
                .env("PGAPPNAME", appName)
                .env("PGSSLMODE", "disable").env("PGCONNECT_TIMEOUT", "10");
        return CompletableFuture.supplyAsync(r::run);
    }

    /** Transactions pgbench completed; fails on any failed transaction, aborted client or refused connection. */
    static long clean(ProcessResult run) {
        assertThat(run.exitCode()).as(run.describe()).isZero();
        assertThat(run.stderr()).as("no client aborted, no connection refused or reset").doesNotContainIgnoringCase("abort")
                .doesNotContain("connection to server").doesNotContain("could not");
        assertThat(number(run.stdout(), "number of failed transactions: (\\d+)")).as(run.stdout()).isZero();
        long xacts = number(run.stdout(), "number of transactions actually processed: (\\d+)");
        assertThat(xacts).isPositive();
        return xacts;
    }

    private static long number(String out, String regex) {
        Matcher m = Pattern.compile(regex).matcher(out);
        assertThat(m.find()).as("'%s' in pgbench's output:\n%s", regex, out).isTrue();
        return Long.parseLong(m.group(1));
    }
}
