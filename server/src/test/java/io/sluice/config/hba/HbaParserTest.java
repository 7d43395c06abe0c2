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
        Files.writeString(dir.resolve("admins.txt"), "alice\nbob, carol\n");
        HbaRules r = HbaParser.parse("hba.conf", """
                # comment line
                local   all          all                               peer
                host    "all"        all        127.0.0.1/32           trust   # literal db "all"
                host    app,reports  @admins.txt 10.0.0.0 255.0.0.0    scram-sha-256
                hostssl all          all        ::1/128                cert map=m1
                hostnossl sameuser   all        192.168.1.0/24         md5
                host    all          "Mixed User" all                  password
                host    all          all        0.0.0.0/0              reject
                """, dir);

        assertThat(r.match(true, false, null, "any", "u")).contains(HbaMethod.PEER);
        assertThat(r.match(false, false, ip("127.0.0.1"), "all", "u")).contains(HbaMethod.TRUST);
        assertThat(r.match(false, false, ip("10.1.2.3"), "app", "bob")).contains(HbaMethod.SCRAM_SHA_256);
        assertThat(r.match(false, false, ip("10.1.2.3"), "app", "mallory")).contains(HbaMethod.REJECT);
        assertThat(r.match(false, true, ip("::1"), "x", "u")).contains(HbaMethod.CERT);
        assertThat(r.match(false, false, ip("::1"), "x", "u")).isEmpty();
        assertThat(r.match(false, false, ip("192.168.1.7"), "joe", "joe")).contains(HbaMethod.MD5);
        assertThat(r.match(false, true, ip("192.168.1.7"), "joe", "joe")).contains(HbaMethod.REJECT);
        assertThat(r.match(false, false, ip("8.8.8.8"), "x", "Mixed User")).contains(HbaMethod.PLAIN);
        assertThat(r.rules().get(3).options()).containsEntry("map", "m1");
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
    }
}
