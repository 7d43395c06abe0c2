package io.sluice.config.hba;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HbaParserTest {

    @TempDir
    Path dir;

    private static InetAddress ip(String s) throws Exception {
        return InetAddress.getByName(s);
    }

    @Test
    void firstMatchingRuleWins() throws Exception {
        Files.writeString(dir.resolve("admins.txt"), "alice\nbob, carol # not dave\n");
        HbaRules r = HbaParser.parse("hba.conf", """
                # comment line
                local   all          all                               peer
                host    "all"        all        127.0.0.1/32           trust   # literal db "all"
                host    app,reports  @admins.txt 10.0.0.0 255.0.0.0    scram-sha-256
                hostssl all          all        ::1/128                cert
                hostnossl sameuser   all        192.168.1.0/24         md5
                host    all          "Mixed User" all                  password
                host    all          all        0.0.0.0/0              reject
                """, dir);

        assertThat(r.match(true, false, null, "any", "u")).contains(HbaMethod.PEER);
        assertThat(r.match(false, false, ip("127.0.0.1"), "all", "u")).contains(HbaMethod.TRUST);
        assertThat(r.match(false, false, ip("10.1.2.3"), "app", "bob")).contains(HbaMethod.SCRAM_SHA_256);
        assertThat(r.match(false, false, ip("10.1.2.3"), "app", "mallory")).contains(HbaMethod.REJECT);
        assertThat(r.match(false, false, ip("10.1.2.3"), "app", "dave")).as("comment in @file").contains(HbaMethod.REJECT);
        assertThat(r.match(false, true, ip("::1"), "x", "u")).contains(HbaMethod.CERT);
        assertThat(r.match(false, false, ip("::1"), "x", "u")).isEmpty();
        assertThat(r.match(false, false, ip("192.168.1.7"), "joe", "joe")).contains(HbaMethod.MD5);
        assertThat(r.match(false, true, ip("192.168.1.7"), "joe", "joe")).contains(HbaMethod.REJECT);
        assertThat(r.match(false, false, ip("8.8.8.8"), "x", "Mixed User")).contains(HbaMethod.PLAIN);
        assertThat(r.firstMatch(false, false, ip("8.8.8.8"), "x", "Mixed User").orElseThrow().line()).isEqualTo(7);
    }

    @Test
    void addressesMatchAsInPgBouncer() throws Exception {
        HbaRules r = HbaParser.parse("hba.conf", """
                host a all 10.1.2.3/8 trust
                host b all 10.0.0.0/8 trust
                host c all 192.168.0.0 255.255.0.0 trust
                host d all fe80::/10 trust
                host e all 0.0.0.0/0 trust
                host f all all trust
                """, dir);
        // an address with bits outside its mask never matches (PgBouncer only warns about it)
        assertThat(r.match(false, false, ip("10.1.2.3"), "a", "u")).isEmpty();
        assertThat(r.match(false, false, ip("10.255.0.1"), "b", "u")).isPresent();
        assertThat(r.match(false, false, ip("11.0.0.1"), "b", "u")).isEmpty();
        assertThat(r.match(false, false, ip("192.168.77.1"), "c", "u")).isPresent();
        assertThat(r.match(false, false, ip("192.169.0.1"), "c", "u")).isEmpty();
        assertThat(r.match(false, false, ip("fe80::1"), "d", "u")).isPresent();
        assertThat(r.match(false, false, ip("10.0.0.1"), "d", "u")).as("IPv4 on an IPv6 line").isEmpty();
        assertThat(r.match(false, false, ip("::1"), "e", "u")).as("IPv6 on an IPv4 line").isEmpty();
        assertThat(r.match(false, false, ip("::1"), "f", "u")).isPresent();
        assertThat(r.match(true, false, null, "f", "u")).as("host lines never match the socket").isEmpty();
    }

    @Test
    void mapOptionsNameIdentMaps() throws Exception {
        IdentMaps idents = IdentParser.parse("ident.conf", "m1 root postgres\n");
        HbaRules r = HbaParser.parse("hba.conf", "local all all peer map=m1\nlocal all all peer\n", dir, idents);
        assertThat(r.rules().get(0).map()).isEqualTo("m1");
        assertThat(r.rules().get(1).map()).isNull();
        assertThat(r.idents().allows("m1", "root", "postgres")).isTrue();
        assertThatThrownBy(() -> HbaParser.parse("hba.conf", "local all all peer map=m2\n", dir, idents))
                .hasMessage("hba.conf:1: ident map m2 is not found in auth_ident_file");
        assertThatThrownBy(() -> HbaParser.parse("hba.conf", "local all all peer clientcert=1\n", dir, idents))
                .hasMessage("hba.conf:1: unsupported hba option (only map=name is): clientcert=1");
    }

    @Test
    void whatPgBouncerLacksIsRefusedByName() {
        assertThatThrownBy(() -> HbaParser.parse("hba.conf", "local all +admins md5\n", dir))
                .hasMessage("hba.conf:1: not supported: +group in hba user field: +admins");
        assertThatThrownBy(() -> HbaParser.parse("hba.conf", "local samerole all md5\n", dir))
                .hasMessage("hba.conf:1: not supported: samerole in hba database field");
        assertThatThrownBy(() -> HbaParser.parse("hba.conf", "host all all samenet md5\n", dir))
                .hasMessage("hba.conf:1: not supported: samenet in hba address");
        assertThatThrownBy(() -> HbaParser.parse("hba.conf", "local all all plain\n", dir))
                .as("PgBouncer's hba says password, not plain")
                .hasMessage("hba.conf:1: unsupported auth method: plain");
    }

    @Test
    void errorsNameFileAndLine() {
        assertThatThrownBy(() -> HbaParser.parse("hba.conf", "\nhost all all 1.2.3.4/33 md5\n", dir))
                .hasMessage("hba.conf:2: invalid CIDR mask: 33");
        assertThatThrownBy(() -> HbaParser.parse("hba.conf", "local all all ldap\n", dir))
                .hasMessage("hba.conf:1: unsupported auth method: ldap");
        assertThatThrownBy(() -> HbaParser.parse("hba.conf", "host all all\n", dir))
                .hasMessage("hba.conf:1: hba line has too few fields");
        assertThatThrownBy(() -> HbaParser.parse("hba.conf", "hots all all all md5\n", dir))
                .hasMessage("hba.conf:1: unknown connection type: hots");
        assertThatThrownBy(() -> HbaParser.parse("hba.conf", "host all all db.example.com md5\n", dir))
                .hasMessage("hba.conf:1: not supported: host names in hba address: db.example.com");
        assertThatThrownBy(() -> HbaParser.parse("hba.conf", "host all all 10.0.0.0 255.0.255.0 md5\n", dir))
                .hasMessage("hba.conf:1: invalid IP mask: 255.0.255.0");
    }
}
