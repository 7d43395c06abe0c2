package io.sluice.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SaltedPasswordsTest {
    private static final byte[] SALT = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    @Test
    void aRememberedDerivationEqualsAFreshOne() {
        byte[] first = SaltedPasswords.of("memo-secret", SALT, 4096);
        byte[] again = SaltedPasswords.of("memo-secret", SALT, 4096);
        assertThat(again).isEqualTo(first).isEqualTo(ScramCrypto.saltedPassword("memo-secret", SALT, 4096))
                .isNotSameAs(first);
        again[0] ^= 1; // a caller's copy: changing it changes nothing remembered
        assertThat(SaltedPasswords.of("memo-secret", SALT, 4096)).isEqualTo(first);
    }

    @Test
    void saltAndIterationsArePartOfTheKey() {
        byte[] otherSalt = "fedcba9876543210".getBytes(StandardCharsets.US_ASCII);
        assertThat(SaltedPasswords.of("memo-key", SALT, 4096)).isNotEqualTo(SaltedPasswords.of("memo-key", otherSalt, 4096))
                .isNotEqualTo(SaltedPasswords.of("memo-key", SALT, 4097));
    }

    @Test
    void theMemoIsBounded() {
        for (int i = 0; i < SaltedPasswords.MAX_ENTRIES + 10; i++) {
            SaltedPasswords.of("memo-bound-" + i, SALT, 1);
        }
        assertThat(SaltedPasswords.size()).isEqualTo(SaltedPasswords.MAX_ENTRIES);
    }
}
