package io.sluice.backend;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** Which secret a server login gets: the auth_file secret as it is, or a client's proven SCRAM keys. */
class ScramKeyCacheTest {
    private static final String B64_32 = Base64.getEncoder().encodeToString(new byte[32]);
    private static final String SCRAM = "SCRAM-SHA-256$4096:c2FsdHNhbHQ=$" + B64_32 + ":" + B64_32;
    private static final String MD5 = "md5" + "0123456789abcdef0123456789abcdef";

    private final ScramKeyCache cache = new ScramKeyCache();

    @Test
    void plainAndMd5SecretsAreSentAsTheyAre() {
        cache.remember("alice", bytes(1), bytes(2));

        BackendCredentials plain = cache.credentials("alice", "pw");
        assertThat(plain.password()).isEqualTo("pw");
        assertThat(plain.hasScramKeys()).isFalse();

        BackendCredentials md5 = cache.credentials("alice", MD5);
        assertThat(md5.password()).isEqualTo(MD5);
        assertThat(md5.isMd5Secret()).isTrue();
        assertThat(md5.hasScramKeys()).isFalse();

        assertThat(cache.credentials("alice", null)).isEqualTo(BackendCredentials.none("alice"));
    }

    @Test
    void scramSecretWithoutAProvenClientHasNothingToSend() {
        BackendCredentials c = cache.credentials("alice", SCRAM);
        assertThat(c.password()).isNull();
        assertThat(c.hasScramKeys()).isFalse();
    }

    @Test
    void scramSecretUsesTheLatestKeysOfThatUserOnly() {
        cache.remember("alice", bytes(1), bytes(2));
        cache.remember("alice", bytes(3), bytes(4));
        cache.remember("bob", bytes(5), bytes(6));

        BackendCredentials c = cache.credentials("alice", SCRAM);
        assertThat(c.password()).isNull();
        assertThat(c.scramClientKey()).isEqualTo(bytes(3));
        assertThat(c.scramServerKey()).isEqualTo(bytes(4));
        assertThat(cache.credentials("carol", SCRAM).hasScramKeys()).isFalse();
    }

    @Test
    void keysAreCopiedInAndOut() {
        byte[] client = bytes(7);
        cache.remember("alice", client, bytes(8));
        client[0] = 99;
        cache.keys("alice").orElseThrow().clientKey()[1] = 99;

        assertThat(cache.keys("alice").orElseThrow().clientKey()).isEqualTo(bytes(7));
    }

    private static byte[] bytes(int v) {
        byte[] b = new byte[32];
        Arrays.fill(b, (byte) v);
        return b;
    }
}
