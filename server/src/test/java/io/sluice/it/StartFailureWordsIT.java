package io.sluice.it;

import io.sluice.testkit.PgBouncerProcess;
import io.sluice.testkit.ProcessResult;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.sluice.it.LogWordsIT.sameLines;

/**
 * Side by side with PgBouncer: how a start that cannot go ahead is told, in the log's words,
 * on stderr and in the logfile, with exit code 1.
 */
class StartFailureWordsIT {
    private static final Path JAR = Path.of("target", "sluice.jar");

    /**
     * A config file that does not load: the parser's ERROR lines in PgBouncer's words (the place
     * as "in configuration (file:line)"), then "FATAL cannot load config file", and exit code 1.
     * One that loads but cannot set TLS up: the reason as an ERROR, then "FATAL TLS setup failed";
     * an %include that cannot be read, and a logfile that cannot be opened, in PgBouncer's words.
     */
    @Test
    void aConfigFileThatDoesNotLoadIsReportedInPgBouncersWords() throws Exception {
        Path dir = io.sluice.testkit.ScratchDir.create("badini");
        Map<String, String> files = new LinkedHashMap<>();
        files.put("bad value", "default_pool_size = abc");
        files.put("unknown key", "foo_bar = 1");
        files.put("syntax error", "this is not a key value line");
        files.put("unknown db parameter", "[databases]\nx = host=127.0.0.1 colour=red");
        files.put("tls without key", "client_tls_sslmode = require");
        files.put("include missing", "%include /nonexistent-sluice-dir/more.ini");
        files.put("logfile unopenable", "logfile = /nonexistent-sluice-dir/x.log");
        Map<String, List<String>> seen = new LinkedHashMap<>();
        try {
            for (Map.Entry<String, String> f : files.entrySet()) {
                Path ini = dir.resolve(f.getKey().replace(' ', '_') + ".ini");
                writeIni(ini, "[databases]\n[pgbouncer]\nlisten_port = 1\n" + f.getValue() + "\n", "rw-r--r--");
                startBoth(List.of(ini.toString()), dir, seen);
            }
        } finally {
            io.sluice.testkit.ScratchDir.delete(dir);
        }
        sameLines("config files that do not load", seen,
                "ERROR invalid value \"abc\" for parameter default_pool_size in configuration (bad_value.ini:4)",
                "FATAL cannot load config file", "exit 1",
                "ERROR unknown parameter: pgbouncer/foo_bar",
                "ERROR invalid value \"1\" for parameter foo_bar in configuration (unknown_key.ini:4)",
                "FATAL cannot load config file", "exit 1",
                "ERROR syntax error in configuration (syntax_error.ini:4), stopping loading",
                "FATAL cannot load config file", "exit 1",
                "ERROR unrecognized connection parameter: colour",
                "ERROR invalid value \"host=127.0.0.1 colour=red\" for parameter x in configuration"
                        + " (unknown_db_parameter.ini:5)",
                "FATAL cannot load config file", "exit 1",
                "ERROR To allow TLS connections from clients, client_tls_key_file and client_tls_cert_file must be set.",
                "FATAL TLS setup failed", "exit 1",
                "ERROR could not load file \"/nonexistent-sluice-dir/more.ini\": No such file or directory",
                "ERROR error processing include file in configuration (include_missing.ini:4), stopping loading",
                "FATAL cannot load config file", "exit 1",
                "FATAL Cannot open logfile: '/nonexistent-sluice-dir/x.log': No such file or directory", "exit 1");
    }

    /**
     * A config file that cannot be read at all (missing, or not readable by the service user),
     * or that has no [pgbouncer] section, and a -u user that does not exist: PgBouncer's one
     * line, then (for a config) the FATAL.
     */
    @Test
    void aConfigFileThatCannotBeReadOrAnUnknownUserIsReportedInPgBouncersWords() throws Exception {
        Path dir = io.sluice.testkit.ScratchDir.create("unreadable-ini");
        Map<String, List<String>> seen = new LinkedHashMap<>();
        try {
            Path noMain = writeIni(dir.resolve("no_main.ini"), "[databases]\nx = host=127.0.0.1\n", "rw-r--r--");
            Path unreadable = writeIni(dir.resolve("unreadable.ini"), "[pgbouncer]\nlisten_port = 1\n", "---------");
            Path good = writeIni(dir.resolve("good.ini"), "[pgbouncer]\nlisten_port = 1\n", "rw-r--r--");
            Path unknownUser = writeIni(dir.resolve("unknown_user.ini"), "[pgbouncer]\nlisten_port = 1\nuser = no-such-user-sluice\n",
                    "rw-r--r--");
            Path otherUser = writeIni(dir.resolve("root_user.ini"), "[pgbouncer]\nlisten_port = 1\nuser = root\n", "rw-r--r--");
            List<List<String>> runs = List.of(List.of(dir.resolve("missing.ini").toString()), List.of(unreadable.toString()),
                    List.of(noMain.toString()), List.of("-u", "no-such-user-sluice", good.toString()),
                    List.of(unknownUser.toString()), List.of(otherUser.toString()));
            for (List<String> args : runs) {
                startBoth(args, dir, seen);
            }
        } finally {
            io.sluice.testkit.ScratchDir.delete(dir);
        }
        sameLines("config files that cannot be read, an unknown user", seen,
                "ERROR could not load file \"missing.ini\": No such file or directory",
                "FATAL cannot load config file", "exit 1",
                "ERROR could not load file \"unreadable.ini\": Permission denied",
                "FATAL cannot load config file", "exit 1",
                "ERROR load_init_file: main section missing from config file",
                "FATAL cannot load config file", "exit 1",
                "FATAL could not find user 'no-such-user-sluice' to switch to", "exit 1",
                "FATAL could not find user 'no-such-user-sluice' to switch to", "exit 1",
                "FATAL failed to assume identity of user 'root': Operation not permitted", "exit 1");
    }

    /**
     * Started by root, a config's {@code user} key is the user the pooler runs as (as -u is):
     * a pidfile in a directory only root may enter then cannot be opened, in PgBouncer's words.
     */
    @Test
    void startedByRootTheConfigsUserKeyIsWhoRuns() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "needs root");
        Path dir = io.sluice.testkit.ScratchDir.create("user-key");
        Map<String, List<String>> seen = new LinkedHashMap<>();
        try {
            Path rootOnly = java.nio.file.Files.createDirectory(dir.resolve("root-only"));
            java.nio.file.Files.setPosixFilePermissions(rootOnly, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
            Path ini = writeIni(dir.resolve("user.ini"), "[pgbouncer]\nlisten_port = 1\nunix_socket_dir =\nuser = "
                    + io.sluice.testkit.ProcessRunner.serviceUserName() + "\npidfile = " + rootOnly.resolve("p.pid") + "\n", "rw-r--r--");
            List<String> sluice = List.of("/bin/sh", Path.of("src/main/dist/bin/sluice").toAbsolutePath().toString(), ini.toString());
            seen.put("Sluice", errorLines(io.sluice.testkit.ProcessRunner.of(sluice).env("SLUICE_JAR", JAR.toAbsolutePath().toString())
                    .env("JAVA_OPTS", "-Xmx64m -XX:+UseSerialGC").run(), dir));
            if (PgBouncerProcess.available()) {
                seen.put("PgBouncer", errorLines(io.sluice.testkit.ProcessRunner.of(PgBouncerProcess.binary().toString(),
                        ini.toString()).run(), dir));
            }
        } finally {
            io.sluice.testkit.ScratchDir.delete(dir);
        }
        sameLines("root with a user key", seen, "FATAL could not open pidfile 'root-only/p.pid': Permission denied", "exit 1");
    }

    /** Starts Sluice, then PgBouncer where installed, with {@code args}; adds each one's error lines to {@code seen}. */
    private static void startBoth(List<String> args, Path dir, Map<String, List<String>> seen) {
        List<String> sluice = new java.util.ArrayList<>(List.of("/bin/sh", Path.of("src/main/dist/bin/sluice").toAbsolutePath().toString()));
        sluice.addAll(args);
        seen.computeIfAbsent("Sluice", k -> new java.util.ArrayList<>()).addAll(errorLines(io.sluice.testkit.ProcessRunner.of(sluice)
                .env("SLUICE_JAR", JAR.toAbsolutePath().toString()).env("JAVA_OPTS", "-Xmx64m -XX:+UseSerialGC")
                .asServiceUser().run(), dir));
        if (PgBouncerProcess.available()) {
            List<String> pgbouncer = new java.util.ArrayList<>(List.of(PgBouncerProcess.binary().toString()));
            pgbouncer.addAll(args);
            seen.computeIfAbsent("PgBouncer", k -> new java.util.ArrayList<>())
                    .addAll(errorLines(io.sluice.testkit.ProcessRunner.of(pgbouncer).asServiceUser().run(), dir));
        }
    }

    private static Path writeIni(Path ini, String text, String mode) throws java.io.IOException {
        java.nio.file.Files.writeString(ini, text);
        java.nio.file.Files.setPosixFilePermissions(ini, java.nio.file.attribute.PosixFilePermissions.fromString(mode));
        return ini;
    }

    /**
     * Started quietly (-q, or -d with stderr gone), a config that does not load is told in the
     * logfile that the lines before the bad one had named, as PgBouncer writes it there; a logfile
     * named only after the bad line is never opened.
     */
    @Test
    void aConfigFileThatDoesNotLoadIsLoggedToTheLogfileItHadNamed() throws Exception {
        Path dir = io.sluice.testkit.ScratchDir.create("badini-log");
        java.nio.file.Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
        Map<String, List<String>> seen = new LinkedHashMap<>();
        try {
            for (String who : List.of("Sluice", "PgBouncer")) {
                if (who.equals("PgBouncer") && !PgBouncerProcess.available()) {
                    continue;
                }
                Path before = dir.resolve(who + "-before.log");
                Path after = dir.resolve(who + "-after.log");
                Path ini = dir.resolve(who + ".ini");
                java.nio.file.Files.writeString(ini, "[databases]\n[pgbouncer]\nlisten_port = 1\nlogfile = " + before
                        + "\ndefault_pool_size = abc\nlogfile = " + after + "\n");
                java.nio.file.Files.setPosixFilePermissions(ini, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
                ProcessResult r = who.equals("Sluice")
                        ? io.sluice.testkit.ProcessRunner.of("/bin/sh", Path.of("src/main/dist/bin/sluice").toAbsolutePath().toString(),
                                "-q", ini.toString()).env("SLUICE_JAR", JAR.toAbsolutePath().toString())
                                .env("JAVA_OPTS", "-Xmx64m -XX:+UseSerialGC").asServiceUser().run()
                        : io.sluice.testkit.ProcessRunner.of(PgBouncerProcess.binary().toString(), "-q", ini.toString())
                                .asServiceUser().run();
                List<String> lines = new java.util.ArrayList<>(java.nio.file.Files.exists(before)
                        ? java.nio.file.Files.readAllLines(before).stream()
                                .map(l -> l.replaceAll("^.*?\\b(ERROR|FATAL) ", "$1 ").replace(dir + "/", "")).toList()
                        : List.of("no logfile"));
                lines.add("exit " + r.exitCode());
                lines.add("stderr: " + r.stderr().strip());
                lines.add("later logfile opened: " + java.nio.file.Files.exists(after));
                seen.put(who, lines);
            }
        } finally {
            io.sluice.testkit.ScratchDir.delete(dir);
        }
        // the file name differs per pooler: compare from the message on
        seen.replaceAll((who, lines) -> lines.stream().map(l -> l.replace(who + ".ini", "x.ini")).toList());
        sameLines("a config that does not load, -q", seen,
                "ERROR invalid value \"abc\" for parameter default_pool_size in configuration (x.ini:5)",
                "FATAL cannot load config file", "exit 1", "stderr: ", "later logfile opened: false");
    }

    /** A run's ERROR and FATAL lines without time and pid, the ini's directory {@code dir} left out, and its exit code. */
    private static List<String> errorLines(ProcessResult r, Path dir) {
        List<String> out = new java.util.ArrayList<>(r.stderr().lines().filter(l -> l.matches(".*\\b(ERROR|FATAL) .*"))
                .map(l -> l.replaceAll("^.*?\\b(ERROR|FATAL) ", "$1 ").replace(dir + "/", ""))
                .toList());
        out.add("exit " + r.exitCode());
        return out;
    }
}
