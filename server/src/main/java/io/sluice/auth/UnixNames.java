package io.sluice.auth;

/**
 * Unix user names for peer authentication, read from /etc/passwd text the way getpwuid()
 * finds them in the files database: the first line with that uid. Pure.
 */
public final class UnixNames {
    private UnixNames() {}

    /** The name of {@code uid} in passwd-format {@code text}, or null when no line has it. */
    public static String nameOf(int uid, String text) {
        if (uid < 0) {
            return null;
        }
        String id = Integer.toString(uid);
        for (String line : text.split("\n")) {
            String[] f = line.split(":", -1);
            if (f.length >= 3 && !f[0].isEmpty() && !f[0].startsWith("#") && f[2].equals(id)) {
                return f[0];
            }
        }
        return null;
    }
}
