package io.sluice.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AuthMethodTest {
    @Test
    void authTypeValuesParseCaseInsensitively() {
        assertThat(AuthMethod.parseAuthType("md5")).isEqualTo(AuthMethod.MD5);
        assertThat(AuthMethod.parseAuthType("SCRAM-SHA-256")).isEqualTo(AuthMethod.SCRAM_SHA_256);
        assertThat(AuthMethod.parseAuthType("Trust")).isEqualTo(AuthMethod.TRUST);
        for (String v : new String[] {"any", "trust", "plain", "md5", "scram-sha-256", "cert", "hba",
            "pam", "ldap"}) {
            assertThat(AuthMethod.parseAuthType(v).configName()).isEqualTo(v);
        }
    }

    @Test
    void hbaOnlyAndUnknownValuesAreNotAuthTypes() {
        assertThat(AuthMethod.tryParseAuthType("peer")).isEmpty();
        assertThat(AuthMethod.tryParseAuthType("reject")).isEmpty();
        assertThat(AuthMethod.tryParseAuthType("password")).isEmpty();
        assertThat(AuthMethod.tryParseAuthType(" md5")).isEmpty();
        assertThat(AuthMethod.tryParseAuthType(null)).isEmpty();
        assertThatThrownBy(() -> AuthMethod.parseAuthType("scram"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("invalid auth_type value: scram");
    }

    @Test
    void hbaMethods() {
        assertThat(AuthMethod.tryParseHbaMethod("password")).contains(AuthMethod.PLAIN);
        assertThat(AuthMethod.tryParseHbaMethod("peer")).contains(AuthMethod.PEER);
        assertThat(AuthMethod.tryParseHbaMethod("reject")).contains(AuthMethod.REJECT);
        assertThat(AuthMethod.tryParseHbaMethod("scram-sha-256")).contains(AuthMethod.SCRAM_SHA_256);
        assertThat(AuthMethod.tryParseHbaMethod("any")).isEmpty();
        assertThat(AuthMethod.tryParseHbaMethod("pam")).isEmpty();
        assertThat(AuthMethod.tryParseHbaMethod("hba")).isEmpty();
        assertThat(AuthMethod.tryParseHbaMethod("MD5")).isEmpty();
    }

    @Test
    void toStringIsConfigName() {
        assertThat(AuthMethod.SCRAM_SHA_256).hasToString("scram-sha-256");
    }
}
