package io.sluice.tls;

import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.edec.EdECObjectIdentifiers;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x9.X9ObjectIdentifiers;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.X509TrustedCertificateBlock;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads what PgBouncer's OpenSSL reads from {@code *_tls_key_file}, {@code *_tls_cert_file} and
 * {@code *_tls_ca_file}: PEM certificates (a chain, or a CA bundle; OpenSSL's TRUSTED
 * CERTIFICATE form too) and a private key as PKCS#1 {@code RSA PRIVATE KEY}, PKCS#8
 * {@code PRIVATE KEY} or SEC1 {@code EC PRIVATE KEY} (with or without its EC PARAMETERS block),
 * RSA, EC and Ed25519/Ed448 alike. Key and certificate may share one file, as with OpenSSL.
 *
 * <p>Encrypted keys are refused: PgBouncer has no passphrase setting, and its libtls reads keys
 * with a password callback that supplies none, so an encrypted key never loads there either.
 *
 * <p>BouncyCastle parses the PEM; the JDK's own key factories build the keys, so BouncyCastle
 * is never registered as a JCE provider (the shaded jar carries no provider signature).
 */
public final class PemFiles {
    private static final Map<ASN1ObjectIdentifier, String> KEY_ALGORITHMS = Map.of(
            PKCSObjectIdentifiers.rsaEncryption, "RSA",
            PKCSObjectIdentifiers.id_RSASSA_PSS, "RSASSA-PSS",
            X9ObjectIdentifiers.id_ecPublicKey, "EC",
            X9ObjectIdentifiers.id_dsa, "DSA",
            EdECObjectIdentifiers.id_Ed25519, "Ed25519",
            EdECObjectIdentifiers.id_Ed448, "Ed448");

    private PemFiles() {
    }

    /** Every certificate in the file, in file order; {@code key} names the setting in errors. */
    public static List<X509Certificate> certificates(String key, String file) throws TlsSetupException {
        List<X509Certificate> certs = new ArrayList<>();
        JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
        for (Object o : objects(key, file)) {
            X509CertificateHolder holder = o instanceof X509CertificateHolder h ? h
                    : o instanceof X509TrustedCertificateBlock t ? t.getCertificateHolder() : null;
            if (holder == null) {
                continue;
            }
            try {
                certs.add(converter.getCertificate(holder));
            } catch (CertificateException e) {
                throw invalid(key, file, "bad certificate: " + e.getMessage());
            }
        }
        if (certs.isEmpty()) {
            throw invalid(key, file, "no PEM certificate found");
        }
        return certs;
    }

    /** The one private key in the file. */
    public static PrivateKey privateKey(String key, String file) throws TlsSetupException {
        PrivateKeyInfo info = null;
        for (Object o : objects(key, file)) {
            if (o instanceof PEMEncryptedKeyPair || o instanceof PKCS8EncryptedPrivateKeyInfo) {
                throw invalid(key, file, "encrypted private keys are not supported (PgBouncer has no passphrase setting)");
            }
            PrivateKeyInfo found = o instanceof PEMKeyPair kp ? kp.getPrivateKeyInfo()
                    : o instanceof PrivateKeyInfo pki ? pki : null;
            if (found != null && info != null) {
                throw invalid(key, file, "more than one private key");
            }
            info = found != null ? found : info;
        }
        if (info == null) {
            throw invalid(key, file, "no PEM private key found");
        }
        String algorithm = KEY_ALGORITHMS.get(info.getPrivateKeyAlgorithm().getAlgorithm());
        if (algorithm == null) {
            throw invalid(key, file, "unsupported key algorithm " + info.getPrivateKeyAlgorithm().getAlgorithm());
        }
        try {
            return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(info.getEncoded()));
        } catch (GeneralSecurityException | IOException e) {
            throw invalid(key, file, "unreadable " + algorithm + " key: " + e.getMessage());
        }
    }

    /**
     * Fails unless the key belongs to the certificate, as OpenSSL's key/certificate check
     * does at setup: a signature made with the key must verify with the certificate.
     */
    public static void checkPair(String keyKey, String certKey, PrivateKey privateKey, X509Certificate cert)
            throws TlsSetupException {
        String algorithm = switch (privateKey.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "DSA" -> "SHA256withDSA";
            case "EdDSA", "Ed25519", "Ed448" -> "EdDSA";
            default -> null; // RSASSA-PSS needs parameters; the handshake itself will tell
        };
        if (algorithm == null) {
            return;
        }
        byte[] probe = "sluice key check".getBytes(StandardCharsets.US_ASCII);
        try {
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(privateKey);
            signer.update(probe);
            byte[] sig = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(cert.getPublicKey());
            verifier.update(probe);
            if (verifier.verify(sig)) {
                return;
            }
        } catch (GeneralSecurityException e) {
            // a key of another type than the certificate's lands here too
        }
        throw new TlsSetupException("invalid " + keyKey + ": private key does not match " + certKey);
    }

    private static List<Object> objects(String key, String file) throws TlsSetupException {
        List<Object> out = new ArrayList<>();
        try (Reader r = Files.newBufferedReader(Path.of(file), StandardCharsets.ISO_8859_1);
             PEMParser parser = new PEMParser(r)) {
            for (Object o = parser.readObject(); o != null; o = parser.readObject()) {
                out.add(o);
            }
        } catch (NoSuchFileException e) {
            throw invalid(key, file, "no such file");
        } catch (AccessDeniedException e) {
            throw invalid(key, file, "permission denied");
        } catch (IOException | RuntimeException e) {
            throw invalid(key, file, "not PEM: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
        }
        return out;
    }

    private static TlsSetupException invalid(String key, String file, String why) {
        return new TlsSetupException("invalid " + key + ": " + file + ": " + why);
    }
}
