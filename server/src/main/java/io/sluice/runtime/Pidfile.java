package io.sluice.runtime;

import io.sluice.config.FileErrors;
import io.sluice.log.Log;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * PgBouncer's pidfile rules. {@link #checkFree} before starting: a missing file is fine, a file
 * naming a dead pid is stale and removed ("stale pidfile, removing"), anything else (a live pid,
 * an empty or unparsable file) is FATAL "pidfile '...' exists, another instance running?".
 * {@link #write} creates it exclusively once the server serves; {@link #remove} at exit.
 */
public final class Pidfile {
    private final Path path;
    private volatile long written = -1;

    public Pidfile(Path path) {
        this.path = path;
    }

    public Path path() {
        return path;
    }

    public void checkFree(Log log) {
        checkFree(log, -1);
    }

    /**
     * As {@link #checkFree(Log)}, but a file holding {@code handoverFrom} (a live pid) is accepted:
     * returns true when it is there, so that {@link #write(long, boolean)} replaces it.
     */
    public boolean checkFree(Log log, long handoverFrom) {
        String content;
        try {
            content = Files.readString(path, StandardCharsets.US_ASCII);
        } catch (NoSuchFileException e) {
            return false;
        } catch (IOException e) {
            // PgBouncer's words: its open() is what fails (a directory it may not enter, say)
            throw new FatalError("could not open pidfile '" + path + "': " + FileErrors.reason(e), e);
        }
        long pid = parse(content);
        if (pid > 0 && pid == handoverFrom && isAlive(pid)) {
            return true;
        }
        if (pid <= 0 || isAlive(pid)) {
            throw new FatalError("pidfile '" + path + "' exists, another instance running?");
        }
        log.info("stale pidfile, removing");
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            throw new FatalError("could not remove stale pidfile: " + FileErrors.reason(e), e);
        }
        return false;
    }

    /** Writes {@code pid} followed by a newline; fails if the file appeared meanwhile. */
    public void write(long pid) {
        write(pid, false);
    }

    /** As {@link #write(long)}; with {@code replace} (a handover) an existing file is replaced atomically. */
    public void write(long pid, boolean replace) {
        try {
            if (replace) {
                Path next = path.resolveSibling(path.getFileName() + ".next-" + pid);
                Files.writeString(next, pid + "\n", StandardCharsets.US_ASCII);
                Files.move(next, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } else {
                Files.writeString(path, pid + "\n", StandardCharsets.US_ASCII,
                        StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            }
        } catch (FileAlreadyExistsException e) {
            throw new FatalError("could not open pidfile '" + path + "': File exists", e);
        } catch (IOException e) {
            throw new FatalError("could not open pidfile '" + path + "': " + FileErrors.reason(e), e);
        }
        written = pid;
    }

    /**
     * Removes the file if this process wrote it (PgBouncer removes it only once written) and it
     * still holds our pid: after a handover it holds the successor's.
     */
    public void remove() {
        long pid = written;
        if (pid < 0) {
            return;
        }
        written = -1;
        if (read() != pid) {
            return;
        }
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // At exit there is nobody left to tell; a stale pidfile is handled at the next start.
        }
    }

    /** The pid in the file, or -1 if the file is missing, empty or not a number. */
    public long read() {
        try {
            return parse(Files.readString(path, StandardCharsets.US_ASCII));
        } catch (IOException e) {
            return -1;
        }
    }

    static long parse(String content) {
        String s = content.strip();
        int end = 0;
        while (end < s.length() && Character.isDigit(s.charAt(end))) {
            end++;
        }
        if (end == 0 || end > 18) {
            return -1;
        }
        return Long.parseLong(s.substring(0, end));
    }

    /** Like {@code kill(pid, 0)}: any process with that pid counts, whoever owns it. */
    static boolean isAlive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
}
