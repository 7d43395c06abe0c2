package io.sluice.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.config.userlist.Secret;
import org.junit.jupiter.api.Test;

class Md5AuthTest {
    // Expected values computed independently with Python's hashlib.
    private static final String SECRET = "md553f48b7c4b76a86ce72276c5755f217d";
    private static final byte[] SALT = {1, 2, 3, 4};
    private static final String RESPONSE = "md5bb41a296aab6baccb36ff243a562abff";

    @Test
    void encryptIsPostgresStoredForm() {
        assertThat(Md5Auth.encrypt("secret", "postgres")).isEqualTo(SECRET);
    }

    @Test
    void clientResponseFromPlainOrMd5SecretIsTheSame() {
        assertThat(Md5Auth.clientResponse("secret", "postgres", SALT)).isEqualTo(RESPONSE);
        assertThat(Md5Auth.clientResponse(SECRET, "postgres", SALT)).isEqualTo(RESPONSE);
    }

    @Test
    void verifyAcceptsRightResponseForPlainAndMd5Secrets() {
        assertThat(Md5Auth.verify(Secret.of("secret"), "postgres", SALT, RESPONSE)).isTrue();
        assertThat(Md5Auth.verify(Secret.of(SECRET), "postgres", SALT, RESPONSE)).isTrue();
    }

    @Test
    void verifyRejectsWrongPasswordUserSaltAndEmptySecret() {
        assertThat(Md5Auth.verify(Secret.of("other"), "postgres", SALT, RESPONSE)).isFalse();
        assertThat(Md5Auth.verify(Secret.of("secret"), "alice", SALT, RESPONSE)).isFalse();
        assertThat(Md5Auth.verify(Secret.of("secret"), "postgres", new byte[] {1, 2, 3, 5}, RESPONSE)).isFalse();
        assertThat(Md5Auth.verify(Secret.of(""), "postgres", SALT, RESPONSE)).isFalse();
        assertThat(Md5Auth.verify(Secret.of("secret"), "postgres", SALT, "md5short")).isFalse();
        assertThat(Md5Auth.verify(Secret.of("secret"), "postgres", SALT, null)).isFalse();
    }

    @Test
    void scramSecretCannotAnswerOrVerifyMd5() {
        String scram = ScramSecret.fromPassword("secret", new byte[16], 4096).toString();
        assertThat(Md5Auth.verify(Secret.of(scram), "postgres", SALT, RESPONSE)).isFalse();
        assertThatThrownBy(() -> Md5Auth.clientResponse(scram, "postgres", SALT))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void saltMustBeFourBytes() {
        assertThatThrownBy(() -> Md5Auth.clientResponse("x", "u", new byte[3]))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void md5SecretRecognitionNeedsLowercaseHexOfRightLength() {
        assertThat(Secret.isMd5(SECRET)).isTrue();
        assertThat(Secret.isMd5(SECRET.toUpperCase())).isFalse();
        assertThat(Secret.isMd5("md5" + "g".repeat(32))).isFalse();
        assertThat(Secret.isMd5(SECRET + "0")).isFalse();
        assertThat(Secret.isMd5("md5")).isFalse();
        assertThat(Secret.isMd5(null)).isFalse();
    }
}
