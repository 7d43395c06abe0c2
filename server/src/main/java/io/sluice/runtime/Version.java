package io.sluice.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** Version strings for {@code -V} and the "process up" log line. */
public final class Version {
    public static final String PGBOUNCER_COMPAT = "1.25.2";

    private Version() {}

    /** Sluice's version from the jar's Maven descriptor, or "(development build)" outside a jar. */
    public static String sluice() {
        try (InputStream in = Version.class.getResourceAsStream(
                "/META-INF/maven/io.sluice/sluice-server/pom.properties")) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                String v = p.getProperty("version");
                if (v != null) {
                    return v;
                }
            }
        } catch (IOException ignored) {
            // Fall through to the development marker: -V must never fail.
        }
        return "(development build)";
    }

    /**
     * Netty's version as Netty reports it, or "unknown". In the shaded jar only one netty
     * module's version file survives the merge, so any netty artifact's version will do.
     */
    public static String netty() {
        java.util.Map<String, io.netty.util.Version> all = io.netty.util.Version.identify();
        io.netty.util.Version v = all.get("netty-common");
        if (v == null) {
            v = all.values().stream().findFirst().orElse(null);
        }
        return v == null ? "unknown" : v.artifactVersion();
    }

    /** The {@code -V} output, PgBouncer-style: name and version first, then library lines. */
    public static String versionText() {
        return "Sluice " + sluice() + " (PgBouncer " + PGBOUNCER_COMPAT + " compatible)\n"
                + "netty " + netty() + "\n"
                + "java " + Runtime.version() + "\n";
    }
}
