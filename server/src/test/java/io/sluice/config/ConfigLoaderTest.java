package io.sluice.config;

import static io.sluice.config.TestConfigs.load;
import static io.sluice.config.TestConfigs.resource;
import static io.sluice.config.TestConfigs.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sluice.config.userlist.Secret;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {

    @TempDir
    Path dir;

    @Test
    void pgbouncerSampleConfigLoads() throws Exception {
        write(dir, "userlist.txt", resource("userlist.txt"));
        ConfigSnapshot s = load(dir, resource("pgbouncer-sample.ini"));

        assertThat(s.databases().keySet()).containsExactly("foodb", "bardb", "forcedb", "nondefaultdb", "web app-db");
        assertThat(s.databases().get("foodb").host()).isEmpty();
        assertThat(s.databases().get("bardb").dbname()).isEqualTo("bazdb");
        DatabaseEntry forced = s.databases().get("forcedb");
        assertThat(forced.port()).isEqualTo(300);
        assertThat(forced.user()).contains("baz");
        assertThat(forced.password()).isEqualTo("foo");
        assertThat(forced.connectQuery()).contains("SELECT 1");
        assertThat(forced.clientEncoding()).contains("UNICODE");
        assertThat(s.databases().get("nondefaultdb").reservePoolSize()).isEqualTo(OptionalInt.of(10));
        assertThat(s.databases().get("web app-db").applicationName()).contains("it's web");
        assertThat(s.fallback()).map(DatabaseEntry::host).contains(java.util.Optional.of("testserver"));
        assertThat(s.database("other")).map(DatabaseEntry::dbname).contains("other");
        assertThat(s.users().get("user1").poolMode()).contains(PoolMode.TRANSACTION);
        assertThat(s.users().get("user1").maxUserConnections()).isEqualTo(OptionalInt.of(10));
        assertThat(s.peers()).isEmpty();
        assertThat(s.listenAddrs()).containsExactly("127.0.0.1");
        assertThat(s.authType()).isEqualTo("trust");
        assertThat(s.authFile()).isPresent();
        assertThat(s.authFile().get().secret("some\"one")).map(Secret::text).contains("pa\"ss word");
        assertThat(s.warnings()).isEmpty();
        assertThat(s.conffile()).isEqualTo("pgbouncer.ini");
    }

    @Test
    void debianStyleConfigLoads() throws Exception {
        Path users = write(dir, "etc/userlist.txt", resource("debian-userlist.txt"));
        String ini = resource("debian-pgbouncer.ini").replace("/etc/pgbouncer/userlist.txt", users.toString());
        ConfigSnapshot s = load(dir, ini);

        assertThat(s.unixSocketDir()).isEqualTo("/var/run/postgresql");
        assertThat(s.listenAddrs()).containsExactly("localhost");
        assertThat(s.settings().string("logfile")).isEqualTo("/var/log/postgresql/pgbouncer.log");
        assertThat(s.authFile().orElseThrow().secret("postgres")).map(Secret::kind).contains(Secret.Kind.SCRAM);
        assertThat(s.databases()).isEmpty();
    }

    @Test
    void installedDebianConfigLoadsWhenPresent() throws Exception {
        Path etc = Path.of("/etc/pgbouncer/pgbouncer.ini");
        assumeTrue(Files.isReadable(etc) && Files.isReadable(Path.of("/etc/pgbouncer/userlist.txt")));
        ConfigSnapshot s = ConfigLoader.load(etc);
        assertThat(s.listenPort()).isEqualTo(6432);
    }

    @Test
    void valuesAndShowConfigFormatting() throws Exception {
        ConfigSnapshot s = load(dir, """
                [pgbouncer]
                Listen_Port = 7432
                server_lifetime = 0.5
                query_wait_timeout = 30
                unix_socket_mode = 0700
                admin_users = alice, bob  carol
                server_check_query =
                pool_mode = Transaction
                """);
        assertThat(s.listenPort()).isEqualTo(7432);
        assertThat(s.serverLifetime()).isEqualTo(Duration.ofMillis(500));
        assertThat(s.adminUsers()).containsExactly("alice", "bob", "carol");
        assertThat(s.serverCheckQuery()).isEmpty();
        assertThat(s.poolMode()).isEqualTo(PoolMode.TRANSACTION);
        assertThat(row(s, "server_lifetime")).isEqualTo(new ShowConfigRow("server_lifetime", "0.5", "3600", "yes"));
        assertThat(row(s, "query_wait_timeout").value()).isEqualTo("30");
        assertThat(row(s, "unix_socket_mode")).isEqualTo(new ShowConfigRow("unix_socket_mode", "448", "0777", "no"));
        assertThat(row(s, "conffile").value()).isEqualTo("pgbouncer.ini");
        assertThat(row(s, "pool_mode").value()).isEqualTo("transaction");
        assertThat(row(s, "admin_users").value()).isEqualTo("alice, bob  carol");
        assertThat(row(s, "verbose")).isEqualTo(new ShowConfigRow("verbose", "0", "", "yes"));
        assertThat(row(s, "server_check_query").defaultValue()).isEqualTo("<empty>");
        assertThat(s.showConfigRows().stream().map(ShowConfigRow::key).toList()).isSorted();
        assertThat(TestConfigs.minimal().serverCheckQuery()).contains("");
    }

    @Test
    void commentsOnlyAtLineStart() throws Exception {
        ConfigSnapshot s = load(dir, """
                # hash comment
                   ; indented comment
                [pgbouncer]  ; comment after section
                server_reset_query = DISCARD ALL ; not a comment
                """);
        assertThat(s.serverResetQuery()).isEqualTo("DISCARD ALL ; not a comment");
    }

    @Test
    void includeIsRelativeToWorkingDirectoryAndNested() throws Exception {
        write(dir, "conf.d/dbs.ini", "[databases]\nincluded = host=db1\n%include conf.d/more.ini\n");
        write(dir, "conf.d/more.ini", "[pgbouncer]\ndefault_pool_size = 7\n");
        ConfigSnapshot s = load(dir, "[pgbouncer]\nlisten_port = 6000\n%include conf.d/dbs.ini\n");
        assertThat(s.databases()).containsKey("included");
        assertThat(s.defaultPoolSize()).isEqualTo(7);
        assertThat(s.listenPort()).isEqualTo(6000);
    }

    @Test
    void includeErrorsNameTheIncludedFileAndLine() {
        write(dir, "inc.ini", "[pgbouncer]\n\nbogus = 1\n");
        assertThatThrownBy(() -> load(dir, "[pgbouncer]\n%include inc.ini\n"))
                .hasMessage("inc.ini:3: unknown parameter: pgbouncer/bogus");
        assertThatThrownBy(() -> load(dir, "[pgbouncer]\n%include missing.ini\n"))
                .hasMessageStartingWith("pgbouncer.ini:2: could not load file \"missing.ini\"");
    }

    @Test
    void includeLoopStopsAtDepthLimit() {
        write(dir, "loop.ini", "%include loop.ini\n");
        assertThatThrownBy(() -> load(dir, "[pgbouncer]\n%include loop.ini\n"))
                .hasMessage("loop.ini:1: include nesting level too deep");
    }

    @Test
    void everyErrorNamesFileAndLine() {
        assertError("[pgbouncer]\nno_such = 1\n", "pgbouncer.ini:2: unknown parameter: pgbouncer/no_such");
        assertError("[pgbouncer]\n\nlisten_port = abc\n",
                "pgbouncer.ini:3: invalid value \"abc\" for parameter listen_port");
        assertError("[pgbouncer]\npool_mode = txn\n", "pgbouncer.ini:2: invalid value \"txn\" for parameter pool_mode");
        assertError("[pgbouncer]\nserver_lifetime = -1\n",
                "pgbouncer.ini:2: invalid value \"-1\" for parameter server_lifetime");
        assertError("[pgbouncer]\njust words\n", "pgbouncer.ini:2: syntax error in configuration");
        assertError("[pgbouncer\n", "pgbouncer.ini:1: syntax error in configuration");
        assertError("[pgbouncer]\n[other]\n", "pgbouncer.ini:2: invalid section \"other\"");
        assertError("listen_port = 1\n[pgbouncer]\n", "pgbouncer.ini:1: value without section: listen_port");
        assertError("[databases]\n", "load_init_file: main section missing from config file");
        assertError("[pgbouncer]\n[databases]\nx = host=a colour=red\n",
                "pgbouncer.ini:3: unrecognized connection parameter: colour");
        assertError("[pgbouncer]\n[databases]\nx = host='open\n", "pgbouncer.ini:3: syntax error in connection string");
        assertError("[pgbouncer]\n[databases]\nx = port=abc\n", "pgbouncer.ini:3: invalid port: abc");
        assertError("[pgbouncer]\n[databases]\nx = pool_mode=txn\n", "pgbouncer.ini:3: invalid pool mode: txn");
        assertError("[pgbouncer]\n[databases]\npgbouncer = host=a\n",
                "pgbouncer.ini:3: database name \"pgbouncer\" is reserved");
        assertError("[pgbouncer]\n[users]\nu = colour=red\n", "pgbouncer.ini:3: unrecognized user parameter: colour");
        assertError("[pgbouncer]\n[peers]\n1 = port=1\n", "pgbouncer.ini:3: host was not provided for peer 1");
        assertError("[pgbouncer]\n[peers]\n0 = host=a\n",
                "pgbouncer.ini:3: ids of peers must be a number larger than 0 and at most 65536");
        assertError("[pgbouncer]\nauth_file = nope.txt\n",
                "pgbouncer.ini:2: could not open auth_file nope.txt: No such file or directory");
    }

    @Test
    void brokenAuthFileNamesItsOwnLine() {
        write(dir, "users.txt", "\"a\" \"b\"\n\nbroken\n");
        assertThatThrownBy(() -> load(dir, "[pgbouncer]\nauth_file = users.txt\n"))
                .hasMessage("users.txt:3: broken auth file");
    }

    @Test
    void tlsKeysAreSupportedKeys() throws Exception {
        // files and their contents are checked when TLS is set up (tls.Tls), like PgBouncer's sbuf_tls_setup
        ConfigSnapshot s = load(dir, "[pgbouncer]\nclient_tls_sslmode = verify-full\nserver_tls_sslmode = verify-ca\n"
                + "client_tls_key_file = k.pem\nclient_tls_protocols = tlsv1.3\nauth_type = cert\n");
        assertThat(s.settings().string("client_tls_sslmode")).isEqualTo("verify-full");
        assertThat(s.settings().string("server_tls_sslmode")).isEqualTo("verify-ca");
        assertThat(s.warnings()).isEmpty();
    }

    @Test
    void databasesQuotingAndPeers() throws Exception {
        ConfigSnapshot s = load(dir, """
                [pgbouncer]
                [databases]
                "we""ird" = host=h1,h2 load_balance_hosts=disable auth_query='SELECT usename, passwd FROM x WHERE usename=$1'
                later = dbname=real server_lifetime=60 reserve_pool=3 pool_mode=statement
                [users]
                "quoted user" = pool_size=5 query_timeout=10 client_idle_timeout=20 transaction_timeout=30
                [peers]
                1 = host=/tmp/p1
                2 = host=10.0.0.2 port=7000 pool_size=4
                """);
        DatabaseEntry w = s.databases().get("we\"ird");
        assertThat(w.hosts()).containsExactly("h1", "h2");
        assertThat(w.loadBalanceHosts()).isEqualTo(LoadBalanceHosts.DISABLE);
        assertThat(w.authQuery()).contains("SELECT usename, passwd FROM x WHERE usename=$1");
        DatabaseEntry later = s.databases().get("later");
        assertThat(later.serverLifetime()).contains(Duration.ofSeconds(60));
        assertThat(later.reservePoolSize()).isEqualTo(OptionalInt.of(3));
        assertThat(later.poolMode()).contains(PoolMode.STATEMENT);
        UserEntry u = s.users().get("quoted user");
        assertThat(u.poolSize()).isEqualTo(OptionalInt.of(5));
        assertThat(u.queryTimeout()).contains(Duration.ofSeconds(10));
        assertThat(u.transactionTimeout()).contains(Duration.ofSeconds(30));
        assertThat(s.peers().get(1).port()).isEqualTo(6432);
        assertThat(s.peers().get(2)).isEqualTo(new PeerEntry(2, "10.0.0.2", 7000, OptionalInt.of(4)));
    }

    @Test
    void duplicateEntriesLastWinsInFirstPosition() throws Exception {
        ConfigSnapshot s = load(dir, "[pgbouncer]\n[databases]\na = port=1\nb = port=2\na = port=3\n");
        assertThat(s.databases().keySet()).containsExactly("a", "b");
        assertThat(s.databases().get("a").port()).isEqualTo(3);
    }

    @Test
    void unsupportedKeysWarnWithFileAndLine() throws Exception {
        ConfigSnapshot s = load(dir, """
                [pgbouncer]
                dns_zone_check_period = 60
                listen_port = 6432
                so_reuseport = 1
                syslog = 1
                syslog_facility = local9
                """);
        // so_reuseport is acted on since issue 17, and syslog since stop 43, so they warn no more
        assertThat(s.warnings()).containsExactlyInAnyOrder(
                "pgbouncer.ini:2: parameter dns_zone_check_period is accepted but not acted on by Sluice yet",
                "pgbouncer.ini:6: syslog_facility=local9 is not a syslog facility; daemon is used");
    }

    @Test
    void pressureWarningWhenClientsGiveUpBeforeReserve() throws Exception {
        ConfigSnapshot s = load(dir, "[pgbouncer]\nquery_wait_timeout = 2\nreserve_pool_timeout = 5\n");
        assertThat(s.warnings()).singleElement().asString().contains("query_wait_timeout (2) is less than reserve_pool_timeout (5)");
    }

    @Test
    void setChangesOnlyChangeableKeys() throws Exception {
        ConfigSnapshot s = TestConfigs.minimal();
        ConfigSnapshot t = s.withSetting("default_pool_size", "33");
        assertThat(t.defaultPoolSize()).isEqualTo(33);
        assertThat(s.defaultPoolSize()).isEqualTo(20);
        assertThat(s.withSetting("SCALING_MAX_PARALLEL_CREATES", " 4 ").maxParallelCreates()).isEqualTo(4);

        assertThatThrownBy(() -> s.withSetting("listen_port", "7000"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("parameter listen_port cannot be changed at run time (needs a restart)");
        assertThatThrownBy(() -> s.withSetting("nope", "1")).hasMessage("unknown parameter: pgbouncer/nope");
        assertThatThrownBy(() -> s.withSetting("max_client_conn", "many"))
                .hasMessage("invalid value \"many\" for parameter max_client_conn");
        assertThat(s.withSetting("client_tls_sslmode", "prefer").settings().string("client_tls_sslmode"))
                .isEqualTo("prefer");
        assertThatThrownBy(() -> s.withSetting("client_tls_sslmode", "sometimes"))
                .isInstanceOf(ConfigException.class);
    }

    @Test
    void setAuthFileRereadsIt() throws Exception {
        write(dir, "u.txt", "\"x\" \"y\"\n");
        ConfigSnapshot s = load(dir, "[pgbouncer]\n").withSetting("auth_file", "u.txt");
        assertThat(s.authFile().orElseThrow().users()).containsKey("x");
        assertThatThrownBy(() -> s.withSetting("auth_file", "gone.txt"))
                .hasMessage("could not open auth_file gone.txt: No such file or directory");
    }

    @Test
    void reloadKeepsRestartOnlyKeysAndReportsThem() throws Exception {
        ConfigSnapshot first = load(dir, "[pgbouncer]\nlisten_port = 6001\ndefault_pool_size = 5\n");
        write(dir, "pgbouncer.ini", "[pgbouncer]\nlisten_port = 6002\ndefault_pool_size = 9\n");
        ConfigSnapshot second = ConfigLoader.reload(first, error -> { throw new AssertionError(error); });
        assertThat(second.listenPort()).isEqualTo(6001);
        assertThat(second.defaultPoolSize()).isEqualTo(9);
        assertThat(second.warnings()).anyMatch(w -> w.contains("listen_port needs a restart"));
    }

    @Test
    void failedReloadThrowsAndLeavesNothing() throws Exception {
        ConfigSnapshot first = load(dir, "[pgbouncer]\ndefault_pool_size = 5\n");
        write(dir, "pgbouncer.ini", "[pgbouncer]\ndefault_pool_size = 9\n[databases]\nx = bad=1\n");
        assertThatThrownBy(() -> ConfigLoader.reload(first, error -> { throw new AssertionError(error); })).isInstanceOf(ConfigException.class);
        assertThat(first.defaultPoolSize()).isEqualTo(5);
    }

    @Test
    void warnsWhenClientsGiveUpBeforeTheCoordinatorCanAnswer() throws Exception {
        ConfigSnapshot s = load(dir, "[pgbouncer]\nquery_wait_timeout = 10\nmax_db_connections = 5\n"
                + "db_reserve_pool_timeout = 20\n");
        assertThat(s.warnings()).anySatisfy(w -> assertThat(w)
                .contains("query_wait_timeout (10) is less than db_reserve_pool_timeout (20)"));
        assertThat(s.warnings()).anySatisfy(w -> assertThat(w)
                .contains("query_wait_timeout (10) is less than min_connection_lifetime (30)"));
    }

    @Test
    void snapshotCollectionsAreImmutable() {
        ConfigSnapshot s = TestConfigs.minimal();
        assertThatThrownBy(() -> s.databases().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> s.warnings().add("x")).isInstanceOf(UnsupportedOperationException.class);
        assertThat(List.copyOf(s.showConfigRows())).hasSize(111); // PgBouncer 1.25.2 keys + Sluice keys
    }

    @Test
    void hbaFileIsReadWhenAuthTypeIsHba() throws Exception {
        write(dir, "hba.conf", "host all all 127.0.0.0/8 trust\n");
        ConfigSnapshot s = load(dir, "[pgbouncer]\nauth_type = hba\nauth_hba_file = hba.conf\n");
        assertThat(s.hba().orElseThrow().match(false, false, java.net.InetAddress.getByName("127.0.0.2"), "d", "u"))
                .contains(io.sluice.config.hba.HbaMethod.TRUST);
        assertThat(load(dir, "[pgbouncer]\nauth_hba_file = hba.conf\n").hba()).isEmpty();
        assertError("[pgbouncer]\nauth_type = hba\n", "pgbouncer.ini:2: auth_type = hba needs auth_hba_file");
        write(dir, "bad.conf", "host all all\n");
        assertError("[pgbouncer]\nauth_type = hba\nauth_hba_file = bad.conf\n", "bad.conf:1: hba line has too few fields");
    }

    @Test
    void identFileIsReadWithTheHbaFile() throws Exception {
        write(dir, "hba.conf", "local all all peer map=ops\n");
        write(dir, "ident.conf", "ops root postgres\n");
        ConfigSnapshot s = load(dir, "[pgbouncer]\nauth_type = hba\nauth_hba_file = hba.conf\nauth_ident_file = ident.conf\n");
        assertThat(s.hba().orElseThrow().idents().allows("ops", "root", "postgres")).isTrue();
        assertError("[pgbouncer]\nauth_type = hba\nauth_hba_file = hba.conf\n",
                "hba.conf:1: ident map ops is not found in auth_ident_file");
        assertThatThrownBy(() -> load(dir, "[pgbouncer]\nauth_type = hba\nauth_hba_file = hba.conf\nauth_ident_file = gone.conf\n"))
                .hasMessageStartingWith("pgbouncer.ini:4: could not open auth_ident_file gone.conf");
    }

    @Test
    void pamAndLdapAreRefusedAtLoad() {
        assertError("[pgbouncer]\nauth_type = pam\n", "pgbouncer.ini:2: not supported: auth_type = pam");
        assertError("[pgbouncer]\nauth_type = ldap\n", "pgbouncer.ini:2: not supported: auth_type = ldap");
    }

    private void assertError(String ini, String message) {
        assertThatThrownBy(() -> load(dir, ini)).as(ini).isInstanceOf(ConfigException.class).hasMessage(message);
    }

    private static ShowConfigRow row(ConfigSnapshot s, String key) {
        return s.showConfigRows().stream().filter(r -> r.key().equals(key)).findFirst().orElseThrow();
    }
}
