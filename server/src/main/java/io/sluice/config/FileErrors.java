package io.sluice.config;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/** Why a file could not be read, in the C library's words PgBouncer prints (strerror). */
public final class FileErrors {
    private FileErrors() {
    }

    public static String reason(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "No such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "Permission denied";
        }
        if (e instanceof NotDirectoryException) {
            return "Not a directory";
        }
        return e.getMessage();
    }
}
