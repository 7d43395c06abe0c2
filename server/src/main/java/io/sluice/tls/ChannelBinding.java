package io.sluice.tls;

import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.edec.EdECObjectIdentifiers;
import org.bouncycastle.asn1.nist.NISTObjectIdentifiers;
import org.bouncycastle.asn1.oiw.OIWObjectIdentifiers;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.Certificate;
import org.bouncycastle.operator.DefaultDigestAlgorithmIdentifierFinder;
import org.bouncycastle.operator.DigestCalculator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaDigestCalculatorProviderBuilder;

import java.io.IOException;
import java.io.OutputStream;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.Set;

/**
 * SCRAM channel binding data of type {@code tls-server-end-point} (RFC 5929 section 4.1), the
 * only type PostgreSQL and its clients use: a hash of the server's certificate (DER), with the
 * hash of the certificate's own signature algorithm, except that MD5 and SHA-1 become SHA-256.
 * A signature without a single separate hash (Ed25519, Ed448) leaves the binding undefined, as
 * OpenSSL reports it to PostgreSQL and libpq.
 */
public final class ChannelBinding {
    /** Hashes a signature may name that RFC 5929 can use (SHAKE, as in Ed448, is not one). */
    private static final Set<ASN1ObjectIdentifier> HASHES = Set.of(PKCSObjectIdentifiers.md5,
            OIWObjectIdentifiers.idSHA1, NISTObjectIdentifiers.id_sha224, NISTObjectIdentifiers.id_sha256,
            NISTObjectIdentifiers.id_sha384, NISTObjectIdentifiers.id_sha512, NISTObjectIdentifiers.id_sha512_224,
            NISTObjectIdentifiers.id_sha512_256, NISTObjectIdentifiers.id_sha3_224, NISTObjectIdentifiers.id_sha3_256,
            NISTObjectIdentifiers.id_sha3_384, NISTObjectIdentifiers.id_sha3_512);

    private ChannelBinding() {
    }

    /**
     * The {@code tls-server-end-point} data of {@code serverCertificate}, or null when RFC 5929
     * defines none for it (then SCRAM-SHA-256-PLUS cannot be used on that connection).
     */
    public static byte[] tlsServerEndPoint(X509Certificate serverCertificate) {
        if (serverCertificate == null) {
            return null;
        }
        try {
            byte[] der = serverCertificate.getEncoded();
            AlgorithmIdentifier hash = hashOf(Certificate.getInstance(der).getSignatureAlgorithm());
            if (hash == null) {
                return null;
            }
            DigestCalculator digest = new JcaDigestCalculatorProviderBuilder().build().get(hash);
            try (OutputStream out = digest.getOutputStream()) {
                out.write(der);
            }
            return digest.getDigest();
        } catch (CertificateEncodingException | OperatorCreationException | IOException | RuntimeException e) {
            return null; // a certificate the TLS library accepted but that cannot be hashed: no binding
        }
    }

    /** The hash RFC 5929 takes for a certificate signed with {@code signature}; null if undefined. */
    static AlgorithmIdentifier hashOf(AlgorithmIdentifier signature) {
        ASN1ObjectIdentifier oid = signature.getAlgorithm();
        // EdDSA hashes inside the signature scheme, not before it: no single hash to take
        if (oid.equals(EdECObjectIdentifiers.id_Ed25519) || oid.equals(EdECObjectIdentifiers.id_Ed448)) {
            return null;
        }
        // reads RSASSA-PSS parameters too, so a PSS certificate gets its own hash
        AlgorithmIdentifier hash = new DefaultDigestAlgorithmIdentifierFinder().find(signature);
        if (hash == null || !HASHES.contains(hash.getAlgorithm())) {
            return null;
        }
        boolean weak = hash.getAlgorithm().equals(PKCSObjectIdentifiers.md5)
                || hash.getAlgorithm().equals(OIWObjectIdentifiers.idSHA1);
        return weak ? new DefaultDigestAlgorithmIdentifierFinder().find("SHA-256") : hash;
    }
}
