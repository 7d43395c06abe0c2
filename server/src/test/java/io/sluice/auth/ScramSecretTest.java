package io.sluice.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.config.userlist.Secret;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class ScramSecretTest {
    // RFC 7677 password/salt; keys computed independently with Python's hashlib.pbkdf2_hmac.
    static final byte[] RFC_SALT = Base64.getDecoder().decode("W22ZaJ0SNY7soEsUEjb6gQ==");
    static final String RFC_SECRET = "SCRAM-SHA-256$4096:W22ZaJ0SNY7soEsUEjb6gQ=="
            + "$WG5d8oPm3OtcPnkdi4Uo7BkeZkBFzpcXkuLmtbsT4qY="
            + ":wfPLwcE6nTWhTAmQ7tl2KeoiWGPlZqQxSrmfPwDl2dU=";

    @Test
    void fromPasswordMatchesIndependentComputation() {
        ScramSecret s = ScramSecret.fromPassword("pencil", RFC_SALT, 4096);
        assertThat(s.toString()).isEqualTo(RFC_SECRET);
        assertThat(s.iterations()).isEqualTo(4096);
        assertThat(s.saltBase64()).isEqualTo("W22ZaJ0SNY7soEsUEjb6gQ==");
    }

    @Test
    void parseRoundTrips() {
        ScramSecret s = ScramSecret.parse(RFC_SECRET);
        assertThat(s).isEqualTo(ScramSecret.fromPassword("pencil", RFC_SALT, 4096));
        assertThat(s.hashCode()).isEqualTo(ScramSecret.fromPassword("pencil", RFC_SALT, 4096).hashCode());
        assertThat(s.toString()).isEqualTo(RFC_SECRET);
        assertThat(Secret.kindOf(RFC_SECRET)).isEqualTo(Secret.Kind.SCRAM);
    }

    @Test
    void invalidSecretsDoNotParseAndCountAsPlain() {
        String[] bad = {
            "SCRAM-SHA-256$4096:W22ZaJ0SNY7soEsUEjb6gQ==$WG5d8oPm3OtcPnkdi4Uo7BkeZkBFzpcXkuLmtbsT4qY=",
            "SCRAM-SHA-256$x:W22ZaJ0SNY7soEsUEjb6gQ==$WG5d8oPm3OtcPnkdi4Uo7BkeZkBFzpcXkuLmtbsT4qY=:AA==",
            "SCRAM-SHA-256$0" + RFC_SECRET.substring(RFC_SECRET.indexOf(':')),
            "SCRAM-SHA-256$4096:!!!$WG5d8oPm3OtcPnkdi4Uo7BkeZkBFzpcXkuLmtbsT4qY="
                    + ":wfPLwcE6nTWhTAmQ7tl2KeoiWGPlZqQxSrmfPwDl2dU=",
            "SCRAM-SHA-256$4096:W22ZaJ0SNY7soEsUEjb6gQ==$AAAA:wfPLwcE6nTWhTAmQ7tl2KeoiWGPlZqQxSrmfPwDl2dU=",
            "SCRAM-SHA-1" + RFC_SECRET.substring("SCRAM-SHA-256".length()),
            "secret",
        };
        for (String b : bad) {
            assertThat(ScramSecret.tryParse(b)).as(b).isEmpty();
            assertThat(Secret.kindOf(b)).as(b).isEqualTo(Secret.Kind.PLAIN);
        }
        assertThatThrownBy(() -> ScramSecret.parse("secret"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void matchesPassword() {
        ScramSecret s = ScramSecret.parse(RFC_SECRET);
        assertThat(s.matchesPassword("pencil")).isTrue();
        assertThat(s.matchesPassword("pencil ")).isFalse();
    }

    @Test
    void nonAsciiPasswordsAreNfkcNormalized() {
        // Full-width "ｐａｓｓ" normalizes to "pass" under NFKC, as SASLprep maps it.
        // Stored key for "pass" computed independently with Python.
        ScramSecret s = ScramSecret.fromPassword("\uFF50\uFF41\uFF53\uFF53", RFC_SALT, 4096);
        assertThat(Base64.getEncoder().encodeToString(s.storedKey()))
                .isEqualTo("85NVb9rMDyh9FRD0MaZxw8LAhOAQq/xpcrmfx1vNWsE=");
        assertThat(s).isEqualTo(ScramSecret.fromPassword("pass", RFC_SALT, 4096));
        // Non-ASCII space maps to a space; soft hyphen maps to nothing.
        assertThat(ScramCrypto.saslPrep("a\u00A0b\u00ADc")).isEqualTo("a bc");
        // Pure ASCII is used unchanged, control characters included (as in PostgreSQL).
        assertThat(ScramCrypto.saslPrep("a\tb")).isEqualTo("a\tb");
    }

    @Test
    void emptyPasswordStillDerivesAKey() {
        ScramSecret s = ScramSecret.fromPassword("", RFC_SALT, 2);
        assertThat(s.matchesPassword("")).isTrue();
        assertThat(s.matchesPassword("x")).isFalse();
    }

    @Test
    void arraysAreDefensivelyCopied() {
        byte[] salt = {1, 2, 3};
        ScramSecret s = ScramSecret.fromPassword("p", salt, 1);
        salt[0] = 9;
        s.salt()[1] = 9;
        assertThat(s.salt()).containsExactly(1, 2, 3);
    }

    @Test
    void secretKindRecognisesMd5() {
        assertThat(Secret.kindOf(Md5Auth.encrypt("a", "b"))).isEqualTo(Secret.Kind.MD5);
        assertThat(Secret.kindOf("")).isEqualTo(Secret.Kind.PLAIN);
    }

    @Test
    void aStoredSecretIsParsedOnceWhereItIsRead() {
        // a login's three looks at its user's secret (the policy's kind, the exchange's kind and
        // keys) read what Secret.of parsed when the auth file or auth_query answer was read
        ScramSecret verifier = ScramSecret.fromPassword("p0", RFC_SALT, 2);
        Secret stored = Secret.of(verifier.toString());
        assertThat(stored.kind()).isEqualTo(Secret.Kind.SCRAM);
        assertThat(stored.scram().orElseThrow()).isSameAs(stored.scram().orElseThrow());
        assertThat(ScramSecret.of(stored)).isEqualTo(verifier);
        assertThat(Secret.of(RFC_SECRET)).isEqualTo(Secret.of(RFC_SECRET)).hasSameHashCodeAs(Secret.of(RFC_SECRET));
        assertThat(ScramSecret.of(Secret.of(RFC_SECRET)).matchesPassword("pencil")).isTrue();
        assertThatThrownBy(() -> ScramSecret.of(Secret.of("pencil")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void oneThreadsMacServesKeyAfterKey() {
        // the per-thread Mac is keyed again for each call: alternating keys give each its own MAC
        byte[] a = ScramCrypto.hmac(ScramCrypto.utf8("key a"), ScramCrypto.utf8("message"));
        byte[] b = ScramCrypto.hmac(ScramCrypto.utf8("key b"), ScramCrypto.utf8("message"));
        assertThat(a).isNotEqualTo(b);
        assertThat(ScramCrypto.hmac(ScramCrypto.utf8("key a"), ScramCrypto.utf8("message"))).isEqualTo(a);
        // RFC 4231 test case 2: HMAC-SHA-256 of "what do ya want for nothing?" under "Jefe"
        assertThat(ScramCrypto.hmac(ScramCrypto.utf8("Jefe"), ScramCrypto.utf8("what do ya want "),
                ScramCrypto.utf8("for nothing?"))).asHexString()
                .isEqualToIgnoringCase("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
        assertThat(ScramCrypto.sha256(new byte[0])).asHexString()
                .isEqualToIgnoringCase("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    }
}
