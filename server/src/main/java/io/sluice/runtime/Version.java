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
        return resource("/META-INF/maven/io.sluice/sluice-server/pom.properties").getProperty("version",
                "(development build)");
    }

    /**
     * Netty's version from the version file its jars carry, or "unknown". In the shaded jar only
     * one netty module's file survives the merge, so any netty artifact's version will do. Read
     * directly: Netty's own Version.identify() parses every build date too, about 60 ms of the
     * start before the "process up" line, while the first clients are already being served.
     */
    public static String netty() {
        Properties p = resource("/META-INF/io.netty.versions.properties");
        String common = p.getProperty("netty-common.version");
        if (common != null) {
            return common;
        }
        return p.stringPropertyNames().stream().filter(k -> k.endsWith(".version")).sorted()
                .map(p::getProperty).findFirst().orElse("unknown");
    }

    /** A properties file on the class path; empty when it is missing or unreadable: -V must never fail. */
    private static Properties resource(String path) {
        Properties p = new Properties();
        try (InputStream in = Version.class.getResourceAsStream(path)) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException ignored) {
            // an empty set: the callers' fallbacks apply
        }
        return p;
    }

    /** The {@code -V} output, PgBouncer-style: name and version first, then library lines. */
    public static String versionText() {
        return "Sluice " + sluice() + " (PgBouncer " + PGBOUNCER_COMPAT + " compatible)\n"
                + "netty " + netty() + "\n"
                + "java " + Runtime.version() + "\n";
    }
}
