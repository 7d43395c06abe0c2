package io.sluice.auth;

import static io.sluice.auth.ClientAuthDecision.Action.ACCEPT;
import static io.sluice.auth.ClientAuthDecision.Action.CHECK_CERT;
import static io.sluice.auth.ClientAuthDecision.Action.CHECK_PEER;
import static io.sluice.auth.ClientAuthDecision.Action.REJECT;
import static io.sluice.auth.ClientAuthDecision.Action.REQUEST_CLEARTEXT;
import static io.sluice.auth.ClientAuthDecision.Action.REQUEST_MD5;
import static io.sluice.auth.ClientAuthDecision.Action.REQUEST_SCRAM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.config.userlist.Secret;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ClientAuthPolicyTest {
    private static final Optional<Secret.Kind> PLAIN = Optional.of(Secret.Kind.PLAIN);
    private static final Optional<Secret.Kind> MD5 = Optional.of(Secret.Kind.MD5);
    private static final Optional<Secret.Kind> SCRAM = Optional.of(Secret.Kind.SCRAM);
    private static final Optional<Secret.Kind> UNKNOWN = Optional.empty();

    private static ClientAuthDecision d(AuthMethod m, Optional<Secret.Kind> s) {
        return ClientAuthPolicy.decide(m, s);
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
        assertThat(d(AuthMethod.CERT, PLAIN).action()).isEqualTo(CHECK_CERT);
        assertThat(d(AuthMethod.PEER, UNKNOWN).action()).isEqualTo(CHECK_PEER);
        ClientAuthDecision r = d(AuthMethod.REJECT, PLAIN);
        assertThat(r.action()).isEqualTo(REJECT);
        assertThat(r.reason()).isEqualTo("login rejected");
    }

    @Test
    void hbaMustBeResolvedFirst() {
        assertThatThrownBy(() -> d(AuthMethod.HBA, PLAIN))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
