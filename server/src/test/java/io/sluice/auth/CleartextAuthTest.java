package io.sluice.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.config.userlist.Secret;
import org.junit.jupiter.api.Test;

class CleartextAuthTest {
    @Test
    void plainSecret() {
        assertThat(CleartextAuth.verify(Secret.of("secret"), "postgres", "secret")).isTrue();
        assertThat(CleartextAuth.verify(Secret.of("secret"), "postgres", "Secret")).isFalse();
    }

    @Test
    void md5Secret() {
        String md5 = Md5Auth.encrypt("secret", "postgres");
        assertThat(CleartextAuth.verify(Secret.of(md5), "postgres", "secret")).isTrue();
        assertThat(CleartextAuth.verify(Secret.of(md5), "alice", "secret")).isFalse();
        assertThat(CleartextAuth.verify(Secret.of(md5), "postgres", "nope")).isFalse();
    }

    @Test
    void scramSecret() {
        String scram = ScramSecret.fromPassword("secret", new byte[] {9, 8, 7}, 16).toString();
        assertThat(CleartextAuth.verify(Secret.of(scram), "postgres", "secret")).isTrue();
        assertThat(CleartextAuth.verify(Secret.of(scram), "postgres", "secret2")).isFalse();
    }

    @Test
    void emptyStoredSecretNeverMatches() {
        assertThat(CleartextAuth.verify(Secret.of(""), "postgres", "")).isFalse();
        assertThat(CleartextAuth.verify(null, "postgres", "x")).isFalse();
    }
}
