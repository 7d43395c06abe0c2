package io.sluice.auth;

import static io.sluice.auth.ClientAuthDecision.Action.ACCEPT;
import static io.sluice.auth.ClientAuthDecision.Action.CHECK_CERT;
import static io.sluice.auth.ClientAuthDecision.Action.REJECT;
import static io.sluice.auth.ClientAuthDecision.Action.REQUEST_CLEARTEXT;
import static io.sluice.auth.ClientAuthDecision.Action.REQUEST_MD5;
import static io.sluice.auth.ClientAuthDecision.Action.REQUEST_SCRAM;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.config.hba.HbaParser;
import io.sluice.config.hba.HbaRules;
import io.sluice.config.hba.IdentParser;
import io.sluice.config.userlist.Secret;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ClientAuthPolicyTest {
    private static final Optional<Secret.Kind> PLAIN = Optional.of(Secret.Kind.PLAIN);
    private static final Optional<Secret.Kind> MD5 = Optional.of(Secret.Kind.MD5);
    private static final Optional<Secret.Kind> SCRAM = Optional.of(Secret.Kind.SCRAM);
    private static final Optional<Secret.Kind> UNKNOWN = Optional.empty();

    /** A TCP login from 127.0.0.1 to db as u under a plain auth_type. */
    private static ClientAuthDecision d(AuthMethod m, Optional<Secret.Kind> s) {
        return ClientAuthPolicy.decide(new LoginRequest(m, Optional.empty(), false, false, ip("127.0.0.1"),
                "db", "u", s, () -> null));
    }

    private static InetAddress ip(String s) {
        try {
            return InetAddress.getByName(s);
        } catch (java.net.UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void md5SwitchesToScramForScramSecrets() {
        assertThat(d(AuthMethod.MD5, PLAIN).action()).isEqualTo(REQUEST_MD5);
        assertThat(d(AuthMethod.MD5, MD5).action()).isEqualTo(REQUEST_MD5);
        assertThat(d(AuthMethod.MD5, UNKNOWN).action()).isEqualTo(REQUEST_MD5);
        ClientAuthDecision up = d(AuthMethod.MD5, SCRAM);
        assertThat(up.action()).isEqualTo(REQUEST_SCRAM);
        assertThat(up.method()).isEqualTo(AuthMethod.SCRAM_SHA_256);
        assertThat(up.doomed()).isFalse();
    }

    @Test
    void scramWithMd5SecretIsDoomed() {
        assertThat(d(AuthMethod.SCRAM_SHA_256, PLAIN).doomed()).isFalse();
        assertThat(d(AuthMethod.SCRAM_SHA_256, SCRAM).doomed()).isFalse();
        assertThat(d(AuthMethod.SCRAM_SHA_256, UNKNOWN).action()).isEqualTo(REQUEST_SCRAM);
        ClientAuthDecision dm = d(AuthMethod.SCRAM_SHA_256, MD5);
        assertThat(dm.action()).isEqualTo(REQUEST_SCRAM);
        assertThat(dm.doomed()).isTrue();
        assertThat(dm.reason()).isEqualTo("SCRAM authentication failed: user has MD5 secret");
    }

    @Test
    void cleartextMethods() {
        for (AuthMethod m : new AuthMethod[] {AuthMethod.PLAIN, AuthMethod.PAM, AuthMethod.LDAP}) {
            assertThat(d(m, SCRAM).action()).isEqualTo(REQUEST_CLEARTEXT);
        }
    }

    @Test
    void passwordlessMethods() {
        assertThat(d(AuthMethod.ANY, UNKNOWN).action()).isEqualTo(ACCEPT);
        assertThat(d(AuthMethod.TRUST, PLAIN).action()).isEqualTo(ACCEPT);
        ClientAuthDecision t = d(AuthMethod.TRUST, UNKNOWN);
        assertThat(t.action()).isEqualTo(REJECT);
        assertThat(t.reason()).isEqualTo("\"trust\" authentication failed");
    }

    @Test
    void certNeedsTlsAndAKnownUser() {
        ClientAuthDecision plainTcp = d(AuthMethod.CERT, PLAIN);
        assertThat(plainTcp.action()).isEqualTo(REJECT);
        assertThat(plainTcp.reason()).isEqualTo("certificate authentication failed");
        LoginRequest tls = new LoginRequest(AuthMethod.CERT, Optional.empty(), false, true, ip("127.0.0.1"),
                "db", "u", PLAIN, () -> null);
        assertThat(ClientAuthPolicy.decide(tls).action()).isEqualTo(CHECK_CERT);
        LoginRequest unknown = new LoginRequest(AuthMethod.CERT, Optional.empty(), false, true, ip("127.0.0.1"),
                "db", "u", UNKNOWN, () -> null);
        assertThat(ClientAuthPolicy.decide(unknown).reason()).isEqualTo("certificate authentication failed");
    }

    private static HbaRules hba(String text) throws Exception {
        return HbaParser.parse("hba", text, Path.of("."),
                IdentParser.parse("ident", "admins root postgres\nadmins alice all\n"));
    }

    private static ClientAuthDecision viaHba(HbaRules rules, boolean unix, String addr, String user,
                                             Optional<Secret.Kind> secret, String peer) {
        return ClientAuthPolicy.decide(new LoginRequest(AuthMethod.HBA, Optional.of(rules), unix, false,
                unix ? null : ip(addr), "app", user, secret, () -> peer));
    }

    @Test
    void hbaPicksTheFirstMatchingLineAndRejectsWhenNoneMatches() throws Exception {
        HbaRules rules = hba("""
                local     app  all              md5
                hostssl   app  all  0.0.0.0/0   trust
                hostnossl app  bob  127.0.0.1/32 reject
                host      app  all  127.0.0.0/8 scram-sha-256
                host      app  all  10.0.0.0/8  password
                """);
        assertThat(viaHba(rules, true, null, "bob", PLAIN, null).action()).isEqualTo(REQUEST_MD5);
        // without TLS the hostssl line never matches; hostnossl does
        ClientAuthDecision bob = viaHba(rules, false, "127.0.0.1", "bob", PLAIN, null);
        assertThat(bob.action()).isEqualTo(REJECT);
        assertThat(bob.reason()).isEqualTo("login rejected");
        assertThat(viaHba(rules, false, "127.0.0.1", "carol", PLAIN, null).action()).isEqualTo(REQUEST_SCRAM);
        assertThat(viaHba(rules, false, "10.9.9.9", "carol", MD5, null).action()).isEqualTo(REQUEST_CLEARTEXT);
        ClientAuthDecision none = viaHba(rules, false, "192.168.0.1", "carol", PLAIN, null);
        assertThat(none.action()).isEqualTo(REJECT);
        assertThat(none.reason()).isEqualTo("no authentication method is found");
        assertThat(none.method()).isEqualTo(AuthMethod.REJECT);
    }

    @Test
    void peerMatchesTheSocketsUnixUserOrItsMap() throws Exception {
        HbaRules rules = hba("""
                local app postgres,carol peer
                local app all            peer map=admins
                host  app all 127.0.0.1/32 peer
                """);
        assertThat(viaHba(rules, true, null, "postgres", PLAIN, "postgres").action()).isEqualTo(ACCEPT);
        ClientAuthDecision wrong = viaHba(rules, true, null, "carol", PLAIN, "postgres");
        assertThat(wrong.action()).isEqualTo(REJECT);
        assertThat(wrong.reason()).isEqualTo("unix socket login rejected");
        // second line: root may be postgres only through the map, alice anyone
        assertThat(viaHba(rules, true, null, "dave", PLAIN, "alice").action()).isEqualTo(ACCEPT);
        assertThat(viaHba(rules, true, null, "dave", PLAIN, "root").action()).isEqualTo(REJECT);
        assertThat(viaHba(rules, true, null, "dave", PLAIN, "dave").action())
                .as("with a map, the same name is not enough").isEqualTo(REJECT);
        assertThat(viaHba(rules, true, null, "dave", PLAIN, null).action()).as("uid without a name").isEqualTo(REJECT);
        assertThat(viaHba(rules, true, null, "dave", UNKNOWN, "alice").reason())
                .as("unknown user").isEqualTo("unix socket login rejected");
        assertThat(viaHba(rules, false, "127.0.0.1", "postgres", PLAIN, "postgres").reason())
                .as("peer over TCP").isEqualTo("unix socket login rejected");
    }

    @Test
    void peerNameIsLookedUpOnlyForPeer() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        HbaRules rules = hba("local all all md5\n");
        ClientAuthPolicy.decide(new LoginRequest(AuthMethod.HBA, Optional.of(rules), true, false, null, "app", "u",
                PLAIN, () -> {
                    asked.incrementAndGet();
                    return "u";
                }));
        assertThat(asked).hasValue(0);
    }
}
