package io.sluice.config.hba;

import java.util.Optional;

/** Authentication methods an hba rule may name, spelled as PgBouncer's hba parser reads them. */
public enum HbaMethod {
    TRUST, REJECT, MD5, PLAIN, SCRAM_SHA_256, PEER, CERT;

    /** Looks a method word up as written in the hba file ({@code password} is plain). */
    public static Optional<HbaMethod> fromConfig(String s) {
        return switch (s) {
            case "trust" -> Optional.of(TRUST);
            case "reject" -> Optional.of(REJECT);
            case "md5" -> Optional.of(MD5);
            case "password" -> Optional.of(PLAIN);
            case "scram-sha-256" -> Optional.of(SCRAM_SHA_256);
            case "peer" -> Optional.of(PEER);
            case "cert" -> Optional.of(CERT);
            default -> Optional.empty();
        };
    }
}
