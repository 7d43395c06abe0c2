package io.sluice.tls;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.postgresql.shaded.com.ongres.scram.common.util.TlsServerEndpoint;

import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.Provider;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * tls-server-end-point (RFC 5929 section 4.1) of certificates signed with each kind of
 * algorithm, made here with BouncyCastle: the signature's own hash, SHA-256 in place of MD5
 * and SHA-1, and no binding for EdDSA, which has no separate hash. Where pgjdbc's SCRAM library
 * (an independent implementation, shaded into the pgjdbc test dependency) defines a value, ours
 * must be the same bytes.
 */
class ChannelBindingTest {
    /** Signs the test certificates: the JDK provider has no MD5withECDSA/PSS spellings in common. */
    private static final Provider BC = new BouncyCastleProvider();

    static X509Certificate selfSigned(String keyAlgorithm, String signatureAlgorithm) throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance(keyAlgorithm, BC);
        if (keyAlgorithm.equals("EC")) {
            g.initialize(new ECGenParameterSpec("secp384r1"));
        } else if (keyAlgorithm.equals("RSA")) {
            g.initialize(2048);
        }
        KeyPair keys = g.generateKeyPair();
        X500Name name = new X500Name("CN=binding " + signatureAlgorithm);
        Instant now = Instant.now();
        var builder = new JcaX509v3CertificateBuilder(name, BigInteger.valueOf(now.toEpochMilli()),
                Date.from(now.minus(Duration.ofDays(1))), Date.from(now.plus(Duration.ofDays(1))), name,
                keys.getPublic());
        return new JcaX509CertificateConverter().getCertificate( // the JDK's parser, as TLS libraries hand it over
                builder.build(new JcaContentSignerBuilder(signatureAlgorithm).setProvider(BC).build(keys.getPrivate())));
    }

    @ParameterizedTest(name = "{1} -> {2}")
    @CsvSource({
        "RSA, MD5withRSA, SHA-256",
        "RSA, SHA1withRSA, SHA-256",
        "EC, SHA1withECDSA, SHA-256",
        "RSA, SHA224withRSA, SHA-224",
        "RSA, SHA256withRSA, SHA-256",
        "EC, SHA256withECDSA, SHA-256",
        "EC, SHA384withECDSA, SHA-384",
        "RSA, SHA512withRSA, SHA-512",
        "EC, SHA512withECDSA, SHA-512",
        "RSA, SHA3-256withRSA, SHA3-256",
    })
    void hashOfTheSignatureAlgorithmWithMd5AndSha1RaisedToSha256(String key, String signature, String hash)
            throws Exception {
        X509Certificate cert = selfSigned(key, signature);
        byte[] expected = MessageDigest.getInstance(hash).digest(cert.getEncoded());
        assertThat(ChannelBinding.tlsServerEndPoint(cert)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"SHA1withRSA", "SHA256withRSA", "SHA384withECDSA", "SHA512withRSA"})
    void sameBytesAsPgjdbcsScramLibrary(String signature) throws Exception {
        X509Certificate cert = selfSigned(signature.endsWith("ECDSA") ? "EC" : "RSA", signature);
        assertThat(ChannelBinding.tlsServerEndPoint(cert)).isEqualTo(TlsServerEndpoint.getChannelBindingData(cert));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"SHA256withRSAandMGF1, SHA-256", "SHA384withRSAandMGF1, SHA-384", "SHA512withRSAandMGF1, SHA-512"})
    void rsaPssTakesTheHashInItsParameters(String signature, String hash) throws Exception {
        X509Certificate cert = selfSigned("RSA", signature);
        assertThat(cert.getSigAlgName()).as("an RSASSA-PSS certificate").containsIgnoringCase("PSS");
        assertThat(ChannelBinding.tlsServerEndPoint(cert))
                .isEqualTo(MessageDigest.getInstance(hash).digest(cert.getEncoded()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Ed25519", "Ed448"})
    void eddsaHasNoBinding(String algorithm) throws Exception {
        assertThat(ChannelBinding.tlsServerEndPoint(selfSigned(algorithm, algorithm))).isNull();
    }

    @org.junit.jupiter.api.Test
    void noCertificateNoBinding() {
        assertThat(ChannelBinding.tlsServerEndPoint(null)).isNull();
    }
}
