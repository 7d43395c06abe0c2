package io.sluice.packaging.deb;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import io.sluice.testkit.SystemdUnit;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/**
 * The .deb as a file: lintian finds no errors, its control fields and payload carry Debian
 * pgbouncer's contract, systemd accepts its unit, which keeps the settings of Debian's own
 * pgbouncer.service, the default config (for machines without one) has Debian's paths and
 * loads cleanly, and the man pages name every option the commands take.
 */
class DebPackageIT {
    private static final Path DEBIAN_PGBOUNCER_UNIT = Path.of("/lib/systemd/system/pgbouncer.service");

    @Test
    void lintianReportsNoErrors() {
        ProcessResult r = ProcessRunner.of("lintian", "--fail-on", "error", "--tag-display-limit", "0",
                Built.deb().toString()).timeout(Duration.ofMinutes(3)).run();
        assertThat(r.exitCode()).as(r.describe()).isZero();
        assertThat(r.stdout().lines().filter(l -> l.startsWith("E: "))).as(r.describe()).isEmpty();
    }

    @Test
    void controlFieldsTakeOverFromPgbouncer() {
        assertThat(field("Package")).isEqualTo("sluice");
        assertThat(field("Version")).isEqualTo(Built.version()).matches("\\d+\\.\\d+\\.\\d+(~\\d{14})?");
        assertThat(field("Architecture")).isEqualTo("amd64");
        assertThat(field("Provides")).isEqualTo("pgbouncer");
        assertThat(field("Conflicts")).isEqualTo("pgbouncer");
        assertThat(field("Replaces")).isEqualTo("pgbouncer");
        assertThat(field("Depends"))
                .isEqualTo("default-jre-headless (>= 2:1.17) | java17-runtime-headless, postgresql-common");
    }

    @Test
    void payloadHasTheCommandsUnitAndDefaultsButNoPgbouncerConfig() {
        String contents = ProcessRunner.of("dpkg-deb", "-c", Built.deb().toString()).run().requireSuccess().stdout();
        assertThat(contents)
                .contains("-rwxr-xr-x root/root", "./usr/sbin/pgbouncer\n")
                .contains("./usr/bin/sluice -> ../sbin/pgbouncer")
                .contains("./usr/bin/sluice-migrate -> ../share/sluice/bin/sluice-migrate")
                .contains("./usr/bin/sluice-compat -> ../share/sluice/bin/sluice-compat")
                .contains("./usr/bin/sluice-handover\n", "./usr/share/man/man1/sluice-handover.1.gz")
                .contains("./lib/systemd/system/pgbouncer.service")
                .contains("./etc/default/sluice")
                .contains("./usr/share/man/man1/sluice.1.gz", "./usr/share/man/man1/sluice-migrate.1.gz")
                .contains("./usr/share/sluice/lib/sluice.jar", "./usr/share/sluice/lib/sluice-migrate.jar")
                // PgBouncer's files are read in place, never shipped: dpkg must not own them.
                .doesNotContain("./etc/pgbouncer/");
        String conffiles = ProcessRunner.of("dpkg-deb", "--info", Built.deb().toString(), "conffiles")
                .run().requireSuccess().stdout();
        assertThat(conffiles.strip()).isEqualTo("/etc/default/sluice");
    }

    @Test
    void systemdAcceptsTheUnitAndItKeepsDebiansPgbouncerServiceContract() {
        Path unitFile = Built.STAGING.resolve("pgbouncer.service");
        // --man=no: the man pages it names are installed with the package, not on this machine.
        ProcessResult verify = ProcessRunner.of("systemd-analyze", "verify", "--man=no", unitFile.toString()).run();
        assertThat(verify.exitCode()).as(verify.describe()).isZero();
        assertThat(verify.stdout() + verify.stderr()).as(verify.describe()).isBlank();

        SystemdUnit ours = SystemdUnit.parse(read(unitFile));
        assertThat(ours.require("Service", "Type")).isEqualTo("notify");
        assertThat(ours.require("Service", "NotifyAccess")).isEqualTo("all");
        assertThat(ours.require("Service", "KillMode")).isEqualTo("mixed");
        assertThat(ours.require("Install", "Alias")).isEqualTo("sluice.service");
        assertThat(ours.require("Install", "WantedBy")).isEqualTo("multi-user.target");
        if (Files.exists(DEBIAN_PGBOUNCER_UNIT)) {
            SystemdUnit debian = SystemdUnit.parse(read(DEBIAN_PGBOUNCER_UNIT));
            for (String key : List.of("Type", "User", "ExecStart", "ExecReload", "KillSignal")) {
                assertThat(ours.get("Service", key)).as(key).isEqualTo(debian.get("Service", key));
            }
        }
    }

    @Test
    void theDefaultConfigForMachinesWithoutOneLoadsCleanly() {
        // postinst installs it only where no pgbouncer.ini exists; Sluice must start from it as is
        String ini = Built.STAGING.resolve("pgbouncer.ini").toString();
        ProcessResult check = ProcessRunner.of("java", "-jar",
                Built.REPO.resolve("migrate-tool/target/sluice-migrate.jar").toString(),
                "check", "--no-port-check", "--config", ini).run();
        assertThat(check.exitCode()).as(check.describe()).isZero();
        assertThat(check.stdout()).contains("0 error(s), 0 warning(s)");
        assertThat(read(Built.STAGING.resolve("pgbouncer.ini")))
                .contains("logfile = /var/log/postgresql/pgbouncer.log", "pidfile = /var/run/postgresql/pgbouncer.pid",
                        "listen_port = 6432", "unix_socket_dir = /var/run/postgresql", "auth_type = md5");
    }

    @Test
    void manPagesNameEveryOptionOfTheCommands() throws IOException {
        String sluiceHelp = ProcessRunner.of("java", "-jar", Built.REPO.resolve("server/target/sluice.jar").toString(),
                "--help").run().requireSuccess().stdout();
        assertThat(longOptions(sluiceHelp)).hasSizeGreaterThan(5);
        assertThat(man("sluice.1.gz")).contains(longOptions(sluiceHelp).stream().map(DebPackageIT::troff).toList());

        String migrate = Built.REPO.resolve("migrate-tool/target/sluice-migrate.jar").toString();
        Set<String> migrateOptions = new LinkedHashSet<>();
        for (String command : List.of("convert", "check")) {
            migrateOptions.addAll(longOptions(ProcessRunner.of("java", "-jar", migrate, command, "--help")
                    .run().requireSuccess().stdout()));
        }
        assertThat(migrateOptions).contains("--server", "--userlist");
        assertThat(man("sluice-migrate.1.gz")).contains(migrateOptions.stream().map(DebPackageIT::troff).toList());

        Set<String> handover = longOptions(ProcessRunner.of("sh", Built.STAGING.resolve("sluice-handover").toString(),
                "--help").run().requireSuccess().stdout());
        assertThat(handover).contains("--config", "--timeout", "--help");
        assertThat(man("sluice-handover.1.gz")).contains(handover.stream().map(DebPackageIT::troff).toList());
    }

    private static Set<String> longOptions(String help) {
        Set<String> options = new LinkedHashSet<>();
        Matcher m = Pattern.compile("(?<![\\w-])--[a-z][a-z-]+").matcher(help);
        while (m.find()) {
            options.add(m.group());
        }
        return options;
    }

    /** How a man page source spells an option: every '-' escaped. */
    private static String troff(String option) {
        return option.replace("-", "\\-");
    }

    private static String man(String name) throws IOException {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(Built.STAGING.resolve("man").resolve(name)))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static String field(String name) {
        return ProcessRunner.of("dpkg-deb", "--field", Built.deb().toString(), name).run().requireSuccess().out();
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
