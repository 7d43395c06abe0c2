package io.sluice.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.config.ConfigLoader;
import io.sluice.config.ConfigSnapshot;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The convert command end to end in-process: output file, report, exit status, error texts. */
class ConvertCommandTest {
    @TempDir
    Path dir;

    private record Run(int status, String out, String err) {
    }

    private static Run run(String... args) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            int rc = Main.run(args);
            return new Run(rc, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    private Path ini(String text) throws Exception {
        return Files.writeString(dir.resolve("pgbouncer.ini"), text);
    }

    @Test
    void refusedValueIsCommentedOutAndReportedAsError() throws Exception {
        Path in = ini("[databases]\napp = host=127.0.0.1\n[pgbouncer]\n; logins through PAM\n"
                + "auth_type = pam\nlisten_port = 6432\n");
        Path out = dir.resolve("sluice.ini");

        Run r = run("convert", in.toString(), "-o", out.toString());

        assertThat(r.status()).isEqualTo(Main.WARNINGS);
        assertThat(r.out()).contains("error: [unsupported] " + in + ":5: auth_type: not supported");
        String text = Files.readString(out);
        assertThat(text).contains("; logins through PAM\n" + Converter.MARK + "NOT CARRIED OVER")
                .contains("; auth_type = pam\n").contains("listen_port = 6432\n");
        ConfigSnapshot s = ConfigLoader.load(out, dir);
        assertThat(s.settings().format("auth_type")).isEqualTo("md5");
    }

    @Test
    void deprecatedNamesAreReplacedAndReported() throws Exception {
        Path in = ini("[databases]\napp = host=127.0.0.1 reserve_pool=3 auth_query='select reserve_pool = 1'\n"
                + "[pgbouncer]\nservice_name = mypool\n");
        Path out = dir.resolve("sluice.ini");

        Run r = run("convert", in.toString(), "-o", out.toString(), "--format", "json");

        assertThat(r.status()).as(r.err()).isEqualTo(Main.OK);
        assertThat(r.out()).contains("\"topic\": \"deprecated\", \"key\": \"reserve_pool\"")
                .contains("\"topic\": \"deprecated\", \"key\": \"service_name\"");
        ConfigSnapshot s = ConfigLoader.load(out, dir);
        assertThat(s.settings().format("job_name")).isEqualTo("mypool");
        assertThat(s.databases().get("app").reservePoolSize().getAsInt()).isEqualTo(3);
        assertThat(s.databases().get("app").authQuery()).contains("select reserve_pool = 1");
    }

    @Test
    void includesAreInlinedAndPressureKeysWrittenOnce() throws Exception {
        Path inc = Files.writeString(dir.resolve("more.ini"), "; tuning\ndefault_pool_size = 7\n");
        Path in = ini("[pgbouncer]\n%include " + inc + "\nlisten_port = 6432\n[databases]\nx = host=127.0.0.1\n");

        Run r = run("convert", in.toString());

        assertThat(r.status()).isEqualTo(Main.OK);
        assertThat(r.out()).contains("begin of %include " + inc).contains("; tuning\ndefault_pool_size = 7\n")
                .contains("scaling_max_parallel_creates = 2\n");
        assertThat(r.out().indexOf("scaling_max_parallel_creates")).isLessThan(r.out().indexOf("[databases]"));
        assertThat(r.err()).contains("warning: [risky] scaling_max_parallel_creates: scaling_max_parallel_creates"
                + " = 2 > pool_size / 4 of the smallest pool (7 / 4)")
                .contains("scaling_max_parallel_creates = 1   (now 2;");
    }

    @Test
    void riskyWaitTimeoutIsReported() throws Exception {
        Path in = ini("[pgbouncer]\nquery_wait_timeout = 2\nreserve_pool_timeout = 5\n");

        Run r = run("convert", in.toString(), "-o", dir.resolve("o.ini").toString());

        assertThat(r.out()).contains("query_wait_timeout (2 s) < reserve_pool_timeout (5 s)");
    }

    @Test
    void badInputNamesFileAndLine() throws Exception {
        Path in = ini("[pgbouncer]\nlisten_port = 6432\nno_such_key = 1\n");
        Run unknown = run("convert", in.toString());
        assertThat(unknown.status()).isEqualTo(Main.ERRORS);
        assertThat(unknown.err()).isEqualTo("sluice-migrate: " + in + ":3: unknown parameter: pgbouncer/no_such_key\n");
        assertThat(unknown.out()).isEmpty();

        Files.writeString(in, "[pgbouncer]\nlisten_port = 6432\n[databases\n");
        assertThat(run("convert", in.toString()).err()).contains(in + ":3: syntax error in configuration");

        Files.writeString(in, "[databases]\napp = host=127.0.0.1 bogus=1\n[pgbouncer]\n");
        assertThat(run("convert", in.toString()).err())
                .contains(in + ":2: unrecognized connection parameter: bogus");

        Run missing = run("convert", dir.resolve("nope.ini").toString());
        assertThat(missing.status()).isEqualTo(Main.ERRORS);
        assertThat(missing.err()).isEqualTo("sluice-migrate: could not load file \"" + dir.resolve("nope.ini")
                + "\": No such file or directory\n");
    }

    @Test
    void helpAndUsageErrors() {
        Run help = run("--help");
        assertThat(help.status()).isZero();
        assertThat(help.out()).contains("convert").contains("check").contains("Exit status:");
        Run convertHelp = run("convert", "--help");
        assertThat(convertHelp.out()).contains("--userlist=FILE").contains("--format=text|json");
        Run bad = run("convert", "--nope", "x");
        assertThat(bad.status()).isEqualTo(Main.ERRORS);
        assertThat(bad.err()).contains("Unknown option: '--nope'").contains("sluice-migrate convert --help");
        assertThat(run("check").err()).contains("Missing required option: '--config=FILE'");
        assertThat(run().status()).isEqualTo(Main.ERRORS);
    }
}
