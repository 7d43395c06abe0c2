package io.sluice.tls;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import org.junit.jupiter.api.Assumptions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PemFilesTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = TestPki.KeyForm.class, names = {"RSA_PKCS1", "RSA_PKCS8", "EC_SEC1", "EC_PKCS8"})
    void readsEveryPlainKeyFormAndMatchesItsCertificate(TestPki.KeyForm form) throws Exception {
        TestPki pki = TestPki.create(dir, "t");
        TestPki.Issued s = pki.server("srv", form);
        String header = Files.readString(s.key()).lines().findFirst().orElseThrow();
        assertThat(header).isEqualTo(switch (form) {
            case RSA_PKCS1 -> "-----BEGIN RSA PRIVATE KEY-----";
            case EC_SEC1 -> "-----BEGIN EC PRIVATE KEY-----";
            default -> "-----BEGIN PRIVATE KEY-----";
        });
        PrivateKey key = PemFiles.privateKey("client_tls_key_file", s.key().toString());
        assertThat(key.getAlgorithm()).isEqualTo(form.name().startsWith("EC") ? "EC" : "RSA");
        PemFiles.checkPair("client_tls_key_file", "client_tls_cert_file", key,
                PemFiles.certificates("client_tls_cert_file", s.cert().toString()).get(0));
    }

    @Test
    void secOneKeyWithItsEcParametersBlockAsOpensslEcparamWritesIt() throws Exception {
        TestPki pki = TestPki.create(dir, "t");
        TestPki.Issued s = pki.server("srv", TestPki.KeyForm.EC_SEC1);
        // `openssl ecparam -genkey` puts the curve OID block first
        Path withParams = dir.resolve("params.key");
        Files.writeString(withParams, "-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n"
                + Files.readString(s.key()));
        assertThat(PemFiles.privateKey("k", withParams.toString()).getAlgorithm()).isEqualTo("EC");
    }

    @Test
    void keyAndCertificateInOneFileAndAChainInOrder() throws Exception {
        TestPki pki = TestPki.create(dir, "t");
        TestPki.Issued s = pki.server("srv", TestPki.KeyForm.RSA_PKCS8);
        Path both = dir.resolve("both.pem");
        Files.writeString(both, Files.readString(s.key()) + Files.readString(s.cert()) + Files.readString(pki.caFile()));
        assertThat(PemFiles.privateKey("k", both.toString()).getAlgorithm()).isEqualTo("RSA");
        assertThat(PemFiles.certificates("c", both.toString()))
                .containsExactly(s.certificate(), pki.caCertificate());
    }

    @ParameterizedTest
    @EnumSource(value = TestPki.KeyForm.class, names = {"RSA_PKCS8_ENCRYPTED", "RSA_PKCS1_ENCRYPTED"})
    void encryptedKeysAreRefusedAsPgBouncerCannotReadThem(TestPki.KeyForm form) {
        TestPki.Issued s = TestPki.create(dir, "t").server("srv", form);
        assertThatThrownBy(() -> PemFiles.privateKey("client_tls_key_file", s.key().toString()))
                .isInstanceOf(TlsSetupException.class)
                .hasMessage("invalid client_tls_key_file: " + s.key()
                        + ": encrypted private keys are not supported (PgBouncer has no passphrase setting)");
    }

    @Test
    void keyOfAnotherCertificateIsRefused() throws Exception {
        TestPki pki = TestPki.create(dir, "t");
        TestPki.Issued a = pki.server("a", TestPki.KeyForm.RSA_PKCS1);
        TestPki.Issued b = pki.server("b", TestPki.KeyForm.RSA_PKCS1);
        TestPki.Issued ec = pki.server("ec", TestPki.KeyForm.EC_SEC1);
        PrivateKey aKey = PemFiles.privateKey("k", a.key().toString());
        assertThatThrownBy(() -> PemFiles.checkPair("client_tls_key_file", "client_tls_cert_file", aKey, b.certificate()))
                .hasMessage("invalid client_tls_key_file: private key does not match client_tls_cert_file");
        assertThatThrownBy(() -> PemFiles.checkPair("k", "c", aKey, ec.certificate()))
                .isInstanceOf(TlsSetupException.class);
    }

    /** Keys as `openssl` itself writes them (the files PgBouncer users have), not only as BouncyCastle does. */
    @Test
    void readsWhatOpensslWrites() throws Exception {
        Path openssl = Path.of("/usr/bin/openssl");
        Assumptions.assumeTrue(Files.isExecutable(openssl), "openssl is installed by .ci/run");
        Map<String, List<String>> keys = new LinkedHashMap<>();
        keys.put("RSA", List.of("genrsa", "-traditional", "2048"));
        keys.put("RSA8", List.of("genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"));
        keys.put("EC", List.of("ecparam", "-name", "prime256v1", "-genkey"));
        keys.put("EC8", List.of("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384"));
        keys.put("ED", List.of("genpkey", "-algorithm", "ed25519"));
        for (Map.Entry<String, List<String>> k : keys.entrySet()) {
            Path file = dir.resolve(k.getKey() + ".key");
            List<String> cmd = new ArrayList<>(List.of(openssl.toString(), k.getValue().get(0), "-out", file.toString()));
            cmd.addAll(k.getValue().subList(1, k.getValue().size()));
            ProcessResult r = ProcessRunner.of(cmd).run();
            assertThat(r.exitCode()).as(r.describe()).isZero();
            PrivateKey key = PemFiles.privateKey("client_tls_key_file", file.toString());
            assertThat(key.getAlgorithm()).as(k.getKey()).isIn("RSA", "EC", "EdDSA", "Ed25519");
        }
        assertThat(Files.readString(dir.resolve("RSA.key"))).startsWith("-----BEGIN RSA PRIVATE KEY-----");
        assertThat(Files.readString(dir.resolve("EC.key"))).startsWith("-----BEGIN EC PARAMETERS-----");
        Path encrypted = dir.resolve("enc.key");
        ProcessResult r = ProcessRunner.of(openssl.toString(), "genpkey", "-algorithm", "EC", "-pkeyopt",
                "ec_paramgen_curve:P-256", "-aes256", "-pass", "pass:x", "-out", encrypted.toString()).run();
        assertThat(r.exitCode()).as(r.describe()).isZero();
        assertThatThrownBy(() -> PemFiles.privateKey("client_tls_key_file", encrypted.toString()))
                .hasMessageContaining("encrypted private keys are not supported");
    }

    @Test
    void missingFileAndNonPemAreNamedErrors() throws Exception {
        assertThatThrownBy(() -> PemFiles.privateKey("server_tls_key_file", dir.resolve("nope").toString()))
                .hasMessage("invalid server_tls_key_file: " + dir.resolve("nope") + ": no such file");
        Path junk = dir.resolve("junk");
        Files.writeString(junk, "hello\n");
        assertThatThrownBy(() -> PemFiles.certificates("client_tls_ca_file", junk.toString()))
                .hasMessage("invalid client_tls_ca_file: " + junk + ": no PEM certificate found");
    }
}
