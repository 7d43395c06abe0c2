package io.sluice.tls;

import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x500.style.IETFUtils;

import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Whether a client certificate names a user, for {@code auth_type = cert}: PgBouncer's libtls
 * check, which compares the subjectAltName DNS and IP entries when the certificate has any and
 * the subject CN otherwise, ignoring case. Wildcards are not expanded: a user name is not a
 * host name, and the stricter reading never lets in someone PgBouncer would refuse.
 */
public final class CertificateNames {
    private static final int SAN_DNS = 2;
    private static final int SAN_IP = 7;

    private CertificateNames() {
    }

    public static boolean names(X509Certificate cert, String name) {
        List<String> alt = altNames(cert);
        if (!alt.isEmpty()) {
            return alt.stream().anyMatch(name::equalsIgnoreCase);
        }
        String cn = commonName(cert);
        return cn != null && cn.equalsIgnoreCase(name);
    }

    /** The subject's (last) CN, or null. */
    public static String commonName(X509Certificate cert) {
        RDN[] cns = new X500Name(cert.getSubjectX500Principal().getName()).getRDNs(BCStyle.CN);
        return cns.length == 0 ? null : IETFUtils.valueToString(cns[cns.length - 1].getFirst().getValue());
    }

    private static List<String> altNames(X509Certificate cert) {
        List<String> out = new ArrayList<>();
        try {
            Collection<List<?>> sans = cert.getSubjectAlternativeNames();
            if (sans != null) {
                for (List<?> san : sans) {
                    int type = (Integer) san.get(0);
                    if (type == SAN_DNS || type == SAN_IP) {
                        out.add(String.valueOf(san.get(1)));
                    }
                }
            }
        } catch (CertificateParsingException e) {
            // an unparsable extension names nobody
        }
        return out;
    }
}
