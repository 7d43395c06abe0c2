package io.sluice.packaging.rpm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sluice.testkit.Encryption;
import io.sluice.testkit.FreePorts;
import io.sluice.testkit.DatagramInbox;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import io.sluice.testkit.ServiceRun;
import io.sluice.testkit.SystemdUnit;
import io.sluice.testkit.ThrowawayRoot;
import io.sluice.testkit.Userlist;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The .rpm: its metadata, file list and scriptlets carry the same contract as the .deb for
 * RHEL-family layouts (asserted with {@code rpm -qp}), and since no RPM distribution is
 * reachable here, its payload and scriptlets run for real with {@code rpm -i --nodeps} in a
 * throwaway copy of this machine's root: they create the pgbouncer user and runtime directory,
 * put back a userlist.txt that erasing PGDG's pgbouncer left as .rpmsave, leave an edited
 * pgbouncer.ini alone, and the unit serves it; {@code rpm -e} leaves both files byte-identical.
 */
class RpmPackageIT {
    private static final Path TARGET = Path.of(System.getProperty("sluice.packageDir", "target"));
    private static final String INI = "/etc/pgbouncer/pgbouncer.ini";
    private static final String USERLIST = "/etc/pgbouncer/userlist.txt";
    private static final String PASSWORD = "rpm-secret";

    @Test
    void metadataCarriesThePgbouncerContract() {
        assertThat(query("--provides")).contains("pgbouncer = 1.25.2")
                .anyMatch(p -> p.matches("sluice\\(x86-64\\) = \\d+\\.\\d+\\.\\d+-(0\\.\\d{14}|1)"));
        assertThat(query("--conflicts")).containsExactly("pgbouncer");
        assertThat(query("--obsoletes")).isEmpty();
        assertThat(query("--requires")).contains("(java-17-openjdk-headless or java-21-openjdk-headless)",
                "coreutils >= 8.31", "util-linux", "shadow-utils", "systemd");
        assertThat(query("--configfiles")).containsExactlyInAnyOrder("/etc/sysconfig/sluice", "/etc/logrotate.d/sluice");
        List<String> files = query("-l");
        assertThat(files).contains("/usr/bin/pgbouncer", "/usr/bin/sluice", "/usr/bin/sluice-migrate",
                "/usr/bin/sluice-compat", "/usr/bin/sluice-handover", "/usr/lib/systemd/system/pgbouncer.service", "/usr/lib/tmpfiles.d/sluice.conf",
                "/usr/share/man/man1/sluice.1.gz", "/usr/share/man/man1/sluice-migrate.1.gz", "/var/log/pgbouncer",
                "/usr/share/sluice/lib/sluice.jar");
        // PgBouncer's files are read in place: rpm must not own (replace or remove) them.
        assertThat(files).noneMatch(f -> f.startsWith("/etc/pgbouncer"));
        String scripts = String.join("\n", query("--scripts"));
        assertThat(scripts).contains("useradd -r -g pgbouncer", "systemctl --no-reload preset pgbouncer.service",
                "systemctl --no-reload disable --now pgbouncer.service", "systemctl try-restart pgbouncer.service",
                "posttrans scriptlet", "sluice-migrate check --no-port-check --config " + INI,
                // an upgrade (marked by %pre) hands over in %posttrans, try-restart only where it cannot
                "touch /var/lib/rpm-state/sluice/upgrade", "/usr/bin/sluice-handover --config " + INI);
        assertThat(scripts.substring(scripts.indexOf("posttrans scriptlet"))).contains("systemctl try-restart");
        assertThat(scripts.substring(scripts.indexOf("postuninstall scriptlet"), scripts.indexOf("posttrans scriptlet")))
                .doesNotContain("systemctl try-restart");
        // the unit file rpmbuild packaged (the payload's copy runs in the test below)
        SystemdUnit unit = SystemdUnit.parse(read(TARGET.resolve("rpm/pgbouncer.service")));
        assertThat(unit.require("Service", "Type")).isEqualTo("notify");
        assertThat(unit.require("Service", "User")).isEqualTo("pgbouncer");
        assertThat(unit.require("Service", "ExecStart")).isEqualTo("/usr/bin/pgbouncer " + INI);
        assertThat(unit.require("Service", "ExecReload")).isEqualTo("/usr/bin/kill -HUP $MAINPID");
        assertThat(unit.require("Service", "KillSignal")).isEqualTo("SIGINT");
        assertThat(unit.require("Install", "Alias")).isEqualTo("sluice.service");
    }

    @Test
    void payloadAndScriptletsServeAnExistingConfigAndEraseKeepsIt() {
        assumeTrue(ThrowawayRoot.unavailable().isEmpty(), () -> "skipped: " + ThrowawayRoot.unavailable().get());
        PgCluster pg = PgCluster.shared();
        String db = PgCluster.uniqueName("rpmdb");
        String user = PgCluster.uniqueName("rpmapp");
        pg.createUser(user, PASSWORD, Encryption.MD5);
        pg.createDatabase(db, user);
        int port = FreePorts.next();
        try (ThrowawayRoot root = ThrowawayRoot.create(TARGET.resolve("roots"));
                DatagramInbox notify = DatagramInbox.bind()) {
            // As after erasing PGDG's pgbouncer: an edited pgbouncer.ini still in place, the edited
            // userlist.txt renamed to .rpmsave by rpm.
            root.shOk("dpkg -r pgbouncer >/dev/null 2>&1; mkdir -p /etc/pgbouncer; rm -f " + USERLIST);
            root.write(INI, "[databases]\n" + db + " = host=127.0.0.1 port=" + pg.port() + " dbname=" + db + "\n\n"
                    + "[pgbouncer]\nlogfile = /var/log/pgbouncer/pgbouncer.log\npidfile = /var/run/pgbouncer/pgbouncer.pid\n"
                    + "listen_addr = 127.0.0.1\nlisten_port = " + port + "\nunix_socket_dir = /var/run/pgbouncer\n"
                    + "auth_type = md5\nauth_file = " + USERLIST + "\nadmin_users = " + user + "\n");
            root.write(USERLIST + ".rpmsave", Userlist.md5Entry(user, PASSWORD) + "\n");
            root.shOk("chmod 644 " + INI + " " + USERLIST + ".rpmsave");
            String ini = root.shOk("sha256sum " + INI);
            String userlist = root.shOk("sha256sum < " + USERLIST + ".rpmsave");

            root.copyIn(rpm(), "/tmp/sluice.rpm");
            ProcessResult install = root.runner("rpm -i --nodeps /tmp/sluice.rpm").timeout(Duration.ofMinutes(3)).run();
            assertThat(install.exitCode()).as(install.describe()).isZero();
            assertThat(install.stdout())
                    .contains("sluice: restored " + USERLIST + " from " + USERLIST + ".rpmsave")
                    .doesNotContain("created " + INI)
                    .contains("sluice-migrate check --no-port-check --config " + INI, "config: " + INI)
                    // the throwaway root's /proc/sys is read-only: %post says so and carries on
                    .contains("sluice: could not apply /usr/lib/sysctl.d/60-sluice.conf: ");
            assertThat(root.shOk("grep -v '^#' /usr/lib/sysctl.d/60-sluice.conf")).isEqualTo("net.ipv4.tcp_migrate_req = 1\n");
            assertThat(root.shOk("sha256sum " + INI)).isEqualTo(ini);
            assertThat(root.shOk("sha256sum < " + USERLIST)).isEqualTo(userlist);
            assertThat(root.shOk("id -un pgbouncer; stat -c '%U %a' /run/pgbouncer /var/log/pgbouncer"))
                    .isEqualTo("pgbouncer\npgbouncer 755\npgbouncer 700\n");

            ProcessResult verify = root.sh("systemd-analyze verify pgbouncer.service");
            assertThat(verify.exitCode()).as(verify.describe()).isZero();
            assertThat(verify.stdout() + verify.stderr()).as(verify.describe()).isBlank();

            ServiceRun service = new ServiceRun(root, "pgbouncer.service");
            assertThat(service.start(notify, Duration.ofSeconds(60))).startsWith("READY=1\n");
            for (String host : List.of("127.0.0.1", "/var/run/pgbouncer")) {
                ProcessResult r = root.runner("PGPASSWORD=" + PASSWORD + " psql -X -A -t -h " + host + " -p " + port
                        + " -U " + user + " -d " + db + " -c 'select current_user'").timeout(Duration.ofSeconds(30)).run();
                assertThat(r.ok()).as(host + ": " + r.describe() + "\n" + service.log()).isTrue();
                assertThat(r.out()).isEqualTo(user);
            }
            assertThat(root.shOk("stat -c %U /proc/" + service.mainPid())).isEqualTo("pgbouncer\n");
            assertThat(root.read("/var/log/pgbouncer/pgbouncer.log")).contains("process up: Sluice");
            service.stop(Duration.ofSeconds(60));

            root.runner("rpm -e sluice").timeout(Duration.ofMinutes(1)).run().requireSuccess();
            assertThat(root.sh("rpm -q sluice").exitCode()).isNotZero();
            assertThat(root.sh("test -e /usr/bin/pgbouncer || test -e /etc/sysconfig/sluice").exitCode()).isNotZero();
            assertThat(root.shOk("sha256sum " + INI)).isEqualTo(ini);
            assertThat(root.shOk("sha256sum < " + USERLIST)).isEqualTo(userlist);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> query(String what) {
        return ProcessRunner.of("rpm", "-qp", what, rpm().toString()).run().requireSuccess().stdout().lines()
                .filter(l -> !l.isBlank() && !l.startsWith("(contains no files)")).collect(Collectors.toList());
    }

    private static Path rpm() {
        try (Stream<Path> files = Files.list(TARGET)) {
            List<Path> rpms = files.filter(p -> p.getFileName().toString().matches("sluice-.*\\.x86_64\\.rpm"))
                    .collect(Collectors.toList());
            assertThat(rpms).as("exactly one sluice-*.x86_64.rpm in %s (run mvn package)", TARGET).hasSize(1);
            return rpms.get(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
