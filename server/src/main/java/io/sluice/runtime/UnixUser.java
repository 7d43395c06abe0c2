package io.sluice.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** This process's Unix uid, read from /proc (no JNI); -1 where /proc is missing. */
final class UnixUser {
    private UnixUser() {
    }

    static int uid() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    return Integer.parseInt(line.substring(4).trim().split("\\s+")[1]);
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }
}
