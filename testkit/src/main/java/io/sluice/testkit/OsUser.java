package io.sluice.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Who server processes run as. PostgreSQL and PgBouncer refuse to run as root, so when this
 * JVM is root they run as the OS user {@code postgres}: their commands are prefixed with
 * {@code setpriv} (which execs in place, so the child's pid is the server's pid and signals
 * reach it directly) or, without setpriv, {@code runuser -u postgres --}; and the files they
 * write are chowned to that user. Otherwise everything runs as the current user.
 */
final class OsUser {
    static final String SERVICE_USER = "postgres";
    private static final boolean ROOT = detectRoot();

    private OsUser() {}

    static boolean isRoot() {
        return ROOT;
    }

    /** The command, wrapped to run as {@value #SERVICE_USER} when we are root. */
    static List<String> asServiceUser(List<String> command) {
        if (!ROOT) {
            return command;
        }
        List<String> wrapped = new ArrayList<>();
        if (Files.isExecutable(Path.of("/usr/bin/setpriv"))) {
            wrapped.addAll(List.of("/usr/bin/setpriv", "--reuid=" + SERVICE_USER, "--regid=" + SERVICE_USER,
                    "--init-groups", "--"));
        } else {
            wrapped.addAll(List.of("runuser", "-u", SERVICE_USER, "--"));
        }
        wrapped.addAll(command);
        return wrapped;
    }

    /** Gives the path (recursively) to {@value #SERVICE_USER} when we are root; no-op otherwise. */
    static void handOver(Path path) {
        if (!ROOT) {
            return;
        }
        try {
            UserPrincipalLookupService lookup = FileSystems.getDefault().getUserPrincipalLookupService();
            var user = lookup.lookupPrincipalByName(SERVICE_USER);
            GroupPrincipal group = lookup.lookupPrincipalByGroupName(SERVICE_USER);
            try (Stream<Path> all = Files.walk(path)) {
                for (Path p : (Iterable<Path>) all::iterator) {
                    PosixFileAttributeView view = Files.getFileAttributeView(p, PosixFileAttributeView.class);
                    view.setOwner(user);
                    view.setGroup(group);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot chown " + path + " to " + SERVICE_USER
                    + " (does the OS user exist?)", e);
        }
    }

    private static boolean detectRoot() {
        try {
            // /proc/self is owned by the process's effective uid.
            return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return "root".equals(System.getProperty("user.name"));
        }
    }
}
