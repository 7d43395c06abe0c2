package io.sluice.packaging.deb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sluice.testkit.Await;
import io.sluice.testkit.Encryption;
import io.sluice.testkit.FreePorts;
import io.sluice.testkit.DatagramInbox;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ServiceRun;
import io.sluice.testkit.ThrowawayRoot;
import io.sluice.testkit.Userlist;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The switch an operator makes, in a throwaway copy of this machine's root (this machine keeps
 * Debian's pgbouncer): Debian's pgbouncer serves a customised config (own port, md5 users, a
 * database on a test PostgreSQL); {@code apt-get install ./sluice_*.deb} swaps it out; Sluice
 * serves the same port and unix socket from the unchanged files, as its unit runs it (user,
 * ExecStart, READY=1 before the port is tried, ExecReload, KillSignal; systemd is not PID 1
 * here); a newer build upgrades over it under pgbench load without dropping a client (the
 * handover), keeping the files and the operator's JVM settings;
 * {@code apt-get remove} and purge leave the config byte-identical; installing pgbouncer again
 * serves again. Steps run in order and share the root.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DebInstallIT {
    private static final Duration START = Duration.ofSeconds(60);
    private static final String INI = "/etc/pgbouncer/pgbouncer.ini";
    private static final String USERLIST = "/etc/pgbouncer/userlist.txt";
    private static final String SOCKET_DIR = "/var/run/postgresql";
    private static final String SYSCTL = "/usr/lib/sysctl.d/60-sluice.conf";
    /** This machine's setting, which the throwaway root shares (one network namespace). */
    private static final Path MIGRATE_REQ = Path.of("/proc/sys/net/ipv4/tcp_migrate_req");

    private static PgCluster pg;
    private static ThrowawayRoot root;
    private static DatagramInbox notify;
    private static int port;
    private static String db;
    private static String user;
    private static final String PASSWORD = "app-secret";
    private static String configBefore;
    private static ServiceRun service;
    private static String migrateReqBefore;

    @BeforeAll
    static void setUp() {
        assumeTrue(ThrowawayRoot.unavailable().isEmpty(), () -> "skipped: " + ThrowawayRoot.unavailable().get());
        pg = PgCluster.shared();
        db = PgCluster.uniqueName("appdb");
        user = PgCluster.uniqueName("app");
        pg.createUser(user, PASSWORD, Encryption.MD5);
        pg.createDatabase(db, user);
        port = FreePorts.next();
        root = ThrowawayRoot.create(Built.TARGET.resolve("roots"));
        notify = DatagramInbox.bind();
        // No service starts itself in the throwaway root (Debian's convention for chroots), and
        // man-db's index rebuild is skipped: the test starts and stops services explicitly.
        root.write("/usr/sbin/policy-rc.d", "#!/bin/sh\nexit 101\n");
        root.shOk("chmod 755 /usr/sbin/policy-rc.d;"
                + " echo 'man-db man-db/auto-update boolean false' | debconf-set-selections");
    }

    @AfterAll
    static void tearDown() {
        if (notify != null) {
            notify.close();
        }
        if (root != null) {
            root.close();
        }
        if (migrateReqBefore != null) {
            writeMigrateReq(migrateReqBefore);
        }
    }

    @Test
    @Order(1)
    void debiansPgbouncerServesTheCustomisedConfig() {
        if (!root.sh("dpkg-query -W -f '${Status}' pgbouncer").out().equals("install ok installed")) {
            root.runner("apt-get install -y pgbouncer").timeout(Duration.ofMinutes(3)).run().requireSuccess();
        }
        root.write(INI, "[databases]\n"
                + db + " = host=127.0.0.1 port=" + pg.port() + " dbname=" + db + "\n"
                + "\n[pgbouncer]\n"
                + "logfile = /var/log/postgresql/pgbouncer.log\n"
                + "pidfile = /var/run/postgresql/pgbouncer.pid\n"
                + "listen_addr = 127.0.0.1\n"
                + "listen_port = " + port + "\n"
                + "unix_socket_dir = " + SOCKET_DIR + "\n"
                + "auth_type = md5\n"
                + "auth_file = " + USERLIST + "\n"
                + "admin_users = " + user + "\n"
                + "pool_mode = transaction\n"
                // what lets an upgrade hand over without dropping clients (step 5)
                + "so_reuseport = 1\n");
        root.write(USERLIST, Userlist.md5Entry(user, PASSWORD) + "\n");
        root.shOk("chown postgres:postgres " + INI + " " + USERLIST + "; chmod 640 " + INI + " " + USERLIST
                + "; : > /var/log/postgresql/pgbouncer.log; chown postgres:postgres /var/log/postgresql/pgbouncer.log");
        configBefore = configState();

        service = new ServiceRun(root, "pgbouncer.service");
        service.start(notify, START);
        assertServes("Debian's pgbouncer");
        assertThat(root.read("/var/log/postgresql/pgbouncer.log")).contains("process up: PgBouncer 1.18");
        service.stop(START);
    }

    @Test
    @Order(2)
    void installingTheDebSwapsPgbouncerOutAndKeepsItsFiles() {
        root.copyIn(Built.deb(), "/tmp/" + Built.deb().getFileName());
        ProcessResult install = root.runner("apt-get install -y /tmp/" + Built.deb().getFileName())
                .timeout(Duration.ofMinutes(3)).run().requireSuccess();
        assertThat(install.stdout()).contains("The following packages will be REMOVED:\n  pgbouncer")
                .contains("Setting up sluice (" + Built.version() + ")")
                // postinst ran sluice-migrate check on the config it found and printed its verdict
                .contains("sluice: sluice-migrate check --no-port-check --config " + INI)
                .contains("config: " + INI)
                .doesNotContain("created " + INI)
                // the throwaway root's /proc/sys is read-only: postinst says so and carries on
                .contains("sluice: could not apply " + SYSCTL + ": ");
        assertThat(root.read(SYSCTL).lines().filter(l -> !l.startsWith("#") && !l.isBlank()))
                .containsExactly("net.ipv4.tcp_migrate_req = 1");
        assertThat(status("pgbouncer")).isEqualTo("deinstall ok config-files");
        assertThat(status("sluice")).isEqualTo("install ok installed");
        assertThat(configState()).isEqualTo(configBefore);
        // enabled as Debian's pgbouncer was, with its sluice.service alias
        assertThat(root.shOk("readlink /etc/systemd/system/multi-user.target.wants/pgbouncer.service"
                + " /etc/systemd/system/sluice.service"))
                .isEqualTo("/lib/systemd/system/pgbouncer.service\n/lib/systemd/system/pgbouncer.service\n");
        ProcessResult verify = root.sh("systemd-analyze verify pgbouncer.service");
        assertThat(verify.exitCode()).as(verify.describe()).isZero();
        assertThat(verify.stdout() + verify.stderr()).as(verify.describe()).isBlank();
    }

    @Test
    @Order(3)
    void sluiceServesTheSamePortAndSocketAsTheUnitRunsIt() {
        service = new ServiceRun(root, "pgbouncer.service");
        assertThat(service.unit().require("Service", "User")).isEqualTo("postgres");
        String ready = service.start(notify, START);
        assertThat(ready).startsWith("READY=1\n");
        assertServes("Sluice");
        assertThat(root.read("/var/log/postgresql/pgbouncer.log")).contains("process up: Sluice");
        assertThat(service.commandLines()).anySatisfy(cmd -> assertThat(cmd)
                .startsWith("java -Xms16m -Xmx256m -XX:+UseParallelGC -XX:ParallelGCThreads=1 -XX:MaxNewSize=16m")
                .contains(" -XX:PerMethodTrapLimit=0 ")
                .endsWith("-jar /usr/share/sluice/lib/sluice.jar "
                        + INI));
        assertThat(root.shOk("stat -c %U /proc/" + service.mainPid())).isEqualTo("postgres\n");
    }

    @Test
    @Order(4)
    void reloadPicksUpAConfigEdit() {
        String alias = db + "_alias";
        assertThat(psqlTcp(alias, "select 1").ok()).isFalse();
        root.shOk("sed -i 's/^\\[databases\\]$/[databases]\\n" + alias + " = host=127.0.0.1 port=" + pg.port()
                + " dbname=" + db + "/' " + INI);
        service.reload();
        assertThat(Await.poll(Duration.ofSeconds(20), () -> psqlTcp(alias, "select 1").ok()))
                .as("the new [databases] entry serves after ExecReload; log:\n%s", service.log()).isTrue();
        configBefore = configState();
    }

    /**
     * Acceptance 3 of issue 17: the package's upgrade under load. postinst runs sluice-handover
     * (no systemd here: through the config's pidfile), the launcher starts the new version next
     * to the old one, which closes its listeners and exits once pgbench's 50 clients are done;
     * the new JVM reads the edited /etc/default/sluice. Nobody is dropped, given the kernel setting
     * the package ships ({@code net.ipv4.tcp_migrate_req = 1}).
     */
    @Test
    @Order(5)
    void aNewerBuildTakesOverUnderLoadKeepingConfigClientsAndTheOperatorsJvmSettings() throws Exception {
        root.shOk("sed -i 's/-Xmx256m/-Xmx200m/' /etc/default/sluice");
        // What postinst applies on a machine that lets it (step 2: not in the throwaway root):
        // without it, connections queued at the old listener when it closes are reset.
        if (Files.exists(MIGRATE_REQ)) {
            migrateReqBefore = Files.readString(MIGRATE_REQ).trim();
            writeMigrateReq(root.read(SYSCTL).lines().filter(l -> l.startsWith("net.ipv4.tcp_migrate_req"))
                    .map(l -> l.substring(l.indexOf('=') + 1).trim()).findFirst().orElseThrow());
        }
        String newer = Built.version() + "+1";
        root.shOk("cd /tmp && rm -rf up && dpkg-deb -R " + Built.deb().getFileName() + " up"
                + " && sed -i 's/^Version: .*/Version: " + newer + "/' up/DEBIAN/control"
                + " && dpkg-deb -Zgzip -b up sluice_newer.deb >/dev/null");
        // A handover is a restart to policy-rc.d, which postinst asks as deb-systemd-invoke does:
        // allow that one action, as on a machine without policy-rc.d.
        root.write("/usr/sbin/policy-rc.d", "#!/bin/sh\n[ \"$1 $2\" = 'pgbouncer.service restart' ] && exit 0\nexit 101\n");
        String oldPid = service.mainPid();
        notify.clear();
        CompletableFuture<ProcessResult> upgrading = CompletableFuture.supplyAsync(() -> root
                .runner("apt-get install -y /tmp/sluice_newer.deb").timeout(Duration.ofMinutes(3)).run());
        // The load starts when dpkg runs postinst (unpacking takes long on a busy machine), so
        // that 40 s of pgbench cover the handover (16-21 s later on a busy 2-core machine: the
        // config check and the new JVM's start); pgbench's clients are all on the old process
        // long before that.
        assertThat(Await.poll(Duration.ofMinutes(3), () -> status("sluice").equals("install ok half-configured")))
                .as("postinst runs").isTrue();
        long start = System.nanoTime();
        CompletableFuture<ProcessResult> fifty = Pgbench.start("fifty", port, user, PASSWORD, db,
                "-c", "50", "-j", "2", "-T", "40");
        CompletableFuture<ProcessResult> perXact = Pgbench.start("per-xact", port, user, PASSWORD, db,
                "-C", "-c", "10", "-j", "2", "-T", "40");
        assertThat(Await.poll(Duration.ofSeconds(30), () -> clients("fifty") == 50))
                .as("pgbench's 50 clients on the old process").isTrue();
        ProcessResult upgrade = upgrading.get(3, TimeUnit.MINUTES).requireSuccess();
        String newPid = service.awaitNewMainPid(notify, Duration.ofSeconds(5));
        long handedOverMs = (System.nanoTime() - start) / 1_000_000;
        assertThat(fifty).as("the handover happened while pgbench ran (if not, the machine was too slow for -T)")
                .isNotDone();
        assertThat(upgrade.stdout()).contains("Unpacking sluice (" + newer + ") over (" + Built.version() + ")")
                .contains("sluice-handover: process " + newPid + " took over; process " + oldPid);
        assertThat(root.read("/var/run/postgresql/pgbouncer.pid")).isEqualTo(newPid + "\n");
        assertThat(newPid).isNotEqualTo(oldPid);
        // new connections reach the new process only, while the old one still has pgbench's 50 clients
        assertThat(Await.poll(Duration.ofSeconds(10), () -> clients("fifty") == 0))
                .as("the console reaches the new process, which has none of the 50").isTrue();
        long onNewAtSwitch = loginsBy(newPid);

        ProcessResult fiftyRun = fifty.get(2, TimeUnit.MINUTES);
        ProcessResult perXactRun = perXact.get(2, TimeUnit.MINUTES);
        long fiftyXacts = Pgbench.clean(fiftyRun);
        long perXactConnections = Pgbench.clean(perXactRun);
        assertThat(Await.poll(Duration.ofSeconds(20), () -> !service.alive(oldPid)))
                .as("the old process exits once its clients have left; log:\n%s", service.log()).isTrue();
        String log = root.read("/var/log/postgresql/pgbouncer.log");
        assertThat(log).contains("[" + newPid + "] LOG taking over from process " + oldPid)
                .contains("[" + oldPid + "] LOG got SIGTERM, shutting down, waiting for all clients disconnect");
        assertServes("Sluice after the upgrade");
        assertThat(psqlTcp("pgbouncer", "show version").out()).contains("(Sluice ");
        assertThat(service.commandLines()).anySatisfy(cmd -> assertThat(cmd).contains(" -Xmx200m "));
        // nothing else left: the new launcher and its JVM are the only Sluice processes
        assertThat(root.shOk("for d in /proc/[0-9]*; do s=$(cut -d' ' -f3 $d/stat 2>/dev/null);"
                + " [ -n \"$s\" ] && [ \"$s\" != Z ] && tr '\\0' ' ' < $d/cmdline | grep -q 'share/[s]luice/'"
                + " && echo ${d#/proc/};"
                + " done; true").lines().sorted().toList()).containsExactlyInAnyOrderElementsOf(
                        root.shOk("echo " + newPid + "; cat /proc/" + newPid + "/task/*/children").lines()
                                .flatMap(l -> Stream.of(l.trim().split("\\s+"))).filter(x -> !x.isEmpty()).toList());
        assertThat(configState()).isEqualTo(configBefore);
        System.out.printf("package upgrade by handover under load: pgbench ran %d ms and %d ms, apt-get returned"
                + " (handover done) at %d ms; -c 50: %d transactions, all 50 clients stayed on the old process %s until pgbench ended;"
                + " -C -c 10: %d connections (one transaction each); logins on the old process %d, on the new"
                + " process %d (%d of them by the time the handover was seen); 0 failed, 0 aborted, 0 refused%n",
                fiftyRun.elapsed().toMillis(), perXactRun.elapsed().toMillis(), handedOverMs, fiftyXacts, oldPid,
                perXactConnections, loginsBy(oldPid), loginsBy(newPid), onNewAtSwitch);
        root.write("/usr/sbin/policy-rc.d", "#!/bin/sh\nexit 101\n");
    }

    @Test
    @Order(6)
    void stopRemoveAndPurgeLeaveTheConfigByteIdentical() {
        service.stop(START);
        assertThat(root.sh("pg_isready -q -h 127.0.0.1 -p " + port).exitCode()).as("port closed").isNotZero();
        root.runner("apt-get remove -y sluice").timeout(Duration.ofMinutes(3)).run().requireSuccess();
        assertThat(status("sluice")).isEqualTo("deinstall ok config-files");
        assertThat(root.sh("test -e /usr/sbin/pgbouncer").exitCode()).isNotZero();
        assertThat(configState()).isEqualTo(configBefore);
        root.runner("dpkg --purge sluice").timeout(Duration.ofMinutes(1)).run().requireSuccess();
        assertThat(root.sh("test -e /etc/default/sluice").exitCode()).isNotZero();
        assertThat(configState()).isEqualTo(configBefore);
    }

    @Test
    @Order(7)
    void reinstallingDebiansPgbouncerServesAgain() {
        root.runner("apt-get install -y pgbouncer").timeout(Duration.ofMinutes(3)).run().requireSuccess();
        assertThat(status("pgbouncer")).isEqualTo("install ok installed");
        assertThat(configState()).isEqualTo(configBefore);
        service = new ServiceRun(root, "pgbouncer.service");
        service.start(notify, START);
        assertServes("Debian's pgbouncer after the rollback");
        assertThat(root.shOk("readlink -f /usr/sbin/pgbouncer; head -c 4 /usr/sbin/pgbouncer | od -An -c"))
                .contains("/usr/sbin/pgbouncer").contains("177   E   L   F");
        service.stop(START);
    }

    /** Right after READY=1 (no retry): a login over TCP and over the unix socket, and the console. */
    private void assertServes(String who) {
        ProcessResult tcp = psqlTcp(db, "select current_user || '@' || current_database()");
        assertThat(tcp.ok()).as(who + " over TCP: " + tcp.describe() + "\nservice output:\n" + service.log()).isTrue();
        assertThat(tcp.out()).isEqualTo(user + "@" + db);
        ProcessResult unix = psql("-h " + SOCKET_DIR, db, "select current_database()");
        assertThat(unix.ok()).as(who + " over the unix socket: " + unix.describe()).isTrue();
        assertThat(unix.out()).isEqualTo(db);
        ProcessResult console = psql("-h 127.0.0.1", "pgbouncer", "show databases");
        assertThat(console.ok()).as(who + " console: " + console.describe()).isTrue();
        assertThat(console.out()).contains(db + "|127.0.0.1|" + pg.port() + "|" + db);
    }

    /** Clients named {@code appName} on the process that answers the console over TCP. */
    private int clients(String appName) {
        ProcessResult r = psqlTcp("pgbouncer", "show clients");
        return r.ok() ? (int) r.out().lines().filter(l -> l.contains("|" + appName + "|")).count() : -1;
    }

    /** Logins the process with public pid {@code pid} logged (log_connections = 1, the default). */
    private long loginsBy(String pid) {
        return root.read("/var/log/postgresql/pgbouncer.log").lines()
                .filter(l -> l.contains("[" + pid + "] LOG") && l.contains("login attempt")).count();
    }

    private ProcessResult psqlTcp(String database, String sql) {
        return psql("-h 127.0.0.1", database, sql);
    }

    private ProcessResult psql(String host, String database, String sql) {
        return root.runner("PGPASSWORD=" + PASSWORD + " PGCONNECT_TIMEOUT=5 psql -X -A -t -v ON_ERROR_STOP=1 " + host
                + " -p " + port + " -U " + user + " -d " + database + " -c " + ThrowawayRoot.quote(sql))
                .timeout(Duration.ofSeconds(30)).run();
    }

    /** Content, owner and mode of PgBouncer's two files. */
    private static String configState() {
        return root.shOk("for f in " + INI + " " + USERLIST + "; do stat -c '%n %U:%G %a' $f; sha256sum $f; done");
    }

    private static void writeMigrateReq(String value) {
        try {
            Files.writeString(MIGRATE_REQ, value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String status(String pkg) {
        return root.sh("dpkg-query -W -f '${Status}' " + pkg).out();
    }
}
