package io.sluice.tls;

import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8EncryptorBuilder;
import org.bouncycastle.openssl.jcajce.JcePEMEncryptorBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.openssl.PKCS8Generator;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A throwaway certificate authority for tests, built with BouncyCastle: a CA, and server or
 * client certificates it signs, written as PEM files in each key form PgBouncer reads. Key
 * files are mode 0600, as libpq and PostgreSQL demand.
 */
public final class TestPki {
    /** Only for writing encrypted test keys; never registered, never used by Sluice itself. */
    private static final java.security.Provider BC = new org.bouncycastle.jce.provider.BouncyCastleProvider();
    private static final AtomicLong SERIALS = new AtomicLong(System.currentTimeMillis());

    /** The PEM spellings of a private key. */
    public enum KeyForm {
        /** PKCS#1 "RSA PRIVATE KEY". */
        RSA_PKCS1,
        /** PKCS#8 "PRIVATE KEY" holding an RSA key. */
        RSA_PKCS8,
        /** SEC1 "EC PRIVATE KEY", P-256. */
        EC_SEC1,
        /** PKCS#8 "PRIVATE KEY" holding an EC key. */
        EC_PKCS8,
        /** PKCS#8 "ENCRYPTED PRIVATE KEY" (password "secret"). */
        RSA_PKCS8_ENCRYPTED,
        /** PKCS#1 with OpenSSL's "Proc-Type: 4,ENCRYPTED" header (password "secret"). */
        RSA_PKCS1_ENCRYPTED
    }

    /** Files of one issued certificate. */
    public record Issued(Path key, Path cert, X509Certificate certificate) {
    }

    private final Path dir;
    private final String name;
    private final KeyPair caKeys;
    private final X509Certificate caCert;
    private final Path caFile;

    private TestPki(Path dir, String name, KeyPair caKeys, X509Certificate caCert, Path caFile) {
        this.dir = dir;
        this.name = name;
        this.caKeys = caKeys;
        this.caCert = caCert;
        this.caFile = caFile;
    }

    /** A new CA named {@code name}; its certificate goes to {@code <dir>/<name>-ca.pem}. */
    public static TestPki create(Path dir, String name) {
        KeyPair keys = keys(KeyForm.EC_SEC1);
        X500Name subject = new X500Name("CN=" + name + " Test CA");
        Instant now = Instant.now();
        X509Certificate cert = sign(subject, keys, subject, keys, now.minus(Duration.ofDays(1)),
                now.plus(Duration.ofDays(30)), true, List.of(), null);
        Path file = dir.resolve(name + "-ca.pem");
        write(file, pem(cert), false);
        return new TestPki(dir, name, keys, cert, file);
    }

    public Path caFile() {
        return caFile;
    }

    public X509Certificate caCertificate() {
        return caCert;
    }

    /** A server certificate for {@code 127.0.0.1} and {@code localhost}, valid now. */
    public Issued server(String fileStem, KeyForm form) {
        Instant now = Instant.now();
        return issue(fileStem, form, "localhost", now.minus(Duration.ofDays(1)), now.plus(Duration.ofDays(30)),
                List.of("DNS:localhost", "IP:127.0.0.1"), KeyPurposeId.id_kp_serverAuth);
    }

    /** A client certificate whose CN is {@code user} (no alt names, so the CN counts). */
    public Issued client(String fileStem, String user, KeyForm form) {
        Instant now = Instant.now();
        return issue(fileStem, form, user, now.minus(Duration.ofDays(1)), now.plus(Duration.ofDays(30)),
                List.of(), KeyPurposeId.id_kp_clientAuth);
    }

    /**
     * Any certificate: {@code altNames} as {@code DNS:name} / {@code IP:addr}; validity as given
     * (an expired one: both instants in the past).
     */
    public Issued issue(String fileStem, KeyForm form, String cn, Instant notBefore, Instant notAfter,
                        List<String> altNames, KeyPurposeId purpose) {
        KeyPair keys = keys(form);
        X509Certificate cert = sign(new X500Name("CN=" + cn), keys, new X500Name("CN=" + name + " Test CA"), caKeys,
                notBefore, notAfter, false, altNames, purpose);
        Path keyFile = dir.resolve(fileStem + ".key");
        Path certFile = dir.resolve(fileStem + ".crt");
        write(keyFile, keyPem(keys, form), true);
        write(certFile, pem(cert), false);
        return new Issued(keyFile, certFile, cert);
    }

    static KeyPair keys(KeyForm form) {
        try {
            if (form == KeyForm.EC_SEC1 || form == KeyForm.EC_PKCS8) {
                KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
                g.initialize(new ECGenParameterSpec("secp256r1"));
                return g.generateKeyPair();
            }
            KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
            g.initialize(2048);
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static X509Certificate sign(X500Name subject, KeyPair subjectKeys, X500Name issuer, KeyPair issuerKeys,
                                        Instant notBefore, Instant notAfter, boolean ca, List<String> altNames,
                                        KeyPurposeId purpose) {
        try {
            X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(issuer,
                    BigInteger.valueOf(SERIALS.incrementAndGet()), Date.from(notBefore), Date.from(notAfter),
                    subject, subjectKeys.getPublic());
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(ca ? KeyUsage.keyCertSign | KeyUsage.cRLSign
                    : KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
            if (purpose != null) {
                b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose));
            }
            if (!altNames.isEmpty()) {
                List<GeneralName> names = new ArrayList<>();
                for (String a : altNames) {
                    names.add(a.startsWith("IP:") ? new GeneralName(GeneralName.iPAddress, a.substring(3))
                            : new GeneralName(GeneralName.dNSName, a.substring(4)));
                }
                b.addExtension(Extension.subjectAlternativeName, false,
                        new GeneralNames(names.toArray(new GeneralName[0])));
            }
            String alg = issuerKeys.getPrivate().getAlgorithm().equals("EC") ? "SHA256withECDSA" : "SHA256withRSA";
            return new JcaX509CertificateConverter().getCertificate(
                    b.build(new JcaContentSignerBuilder(alg).build(issuerKeys.getPrivate())));
        } catch (Exception e) {
            throw new IllegalStateException("cannot issue test certificate", e);
        }
    }

    static String keyPem(KeyPair keys, KeyForm form) {
        try {
            StringWriter out = new StringWriter();
            try (JcaPEMWriter w = new JcaPEMWriter(out)) {
                switch (form) {
                    // BouncyCastle writes a bare private key in OpenSSL's traditional form: PKCS#1 / SEC1
                    case RSA_PKCS1 -> w.writeObject(keys.getPrivate());
                    case EC_SEC1 -> w.writeObject(sec1(keys));
                    case RSA_PKCS8, EC_PKCS8 -> w.writeObject(new JcaPKCS8Generator(keys.getPrivate(), null));
                    case RSA_PKCS8_ENCRYPTED -> w.writeObject(new JcaPKCS8Generator(keys.getPrivate(),
                            new JceOpenSSLPKCS8EncryptorBuilder(PKCS8Generator.AES_256_CBC).setProvider(BC)
                                    .setPassword("secret".toCharArray()).build()));
                    case RSA_PKCS1_ENCRYPTED -> w.writeObject(keys.getPrivate(),
                            new JcePEMEncryptorBuilder("AES-256-CBC").setProvider(BC).build("secret".toCharArray()));
                    default -> throw new IllegalArgumentException(String.valueOf(form));
                }
            }
            return out.toString();
        } catch (Exception e) {
            throw new IllegalStateException("cannot write test key", e);
        }
    }

    /**
     * SEC1 as {@code openssl ecparam -genkey} writes it: the curve inside the key. (BouncyCastle
     * would write the bare key without it, which OpenSSL cannot read either.)
     */
    private static PemObject sec1(KeyPair keys) throws IOException {
        PrivateKeyInfo info = PrivateKeyInfo.getInstance(keys.getPrivate().getEncoded());
        org.bouncycastle.asn1.sec.ECPrivateKey bare = org.bouncycastle.asn1.sec.ECPrivateKey.getInstance(info.parsePrivateKey());
        org.bouncycastle.asn1.sec.ECPrivateKey full = new org.bouncycastle.asn1.sec.ECPrivateKey(256, bare.getKey(),
                SubjectPublicKeyInfo.getInstance(keys.getPublic().getEncoded()).getPublicKeyData(),
                info.getPrivateKeyAlgorithm().getParameters());
        return new PemObject("EC PRIVATE KEY", full.getEncoded());
    }

    static String pem(X509Certificate cert) {
        try {
            StringWriter out = new StringWriter();
            try (JcaPEMWriter w = new JcaPEMWriter(out)) {
                w.writeObject(cert);
            }
            return out.toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(Path file, String text, boolean secret) {
        try {
            Files.writeString(file, text);
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(secret ? "rw-------" : "rw-r--r--"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
