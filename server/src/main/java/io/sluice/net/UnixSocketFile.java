package io.sluice.net;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The listening unix socket's file. SO_REUSEPORT does not apply to unix sockets, so PgBouncer
 * refuses to start while another process answers on the path ("unix socket is in use, cannot
 * continue") and wants each process of an so_reuseport group in a unix_socket_dir of its own.
 * With {@code so_reuseport = 1} Sluice instead takes the path over: the running process keeps
 * its clients and its (now nameless) listener, new unix clients reach the new process, which is
 * what a restart with the same config needs. A process removes the file on exit only while it is
 * still the one it bound, so the old process of a restart does not delete its successor's.
 * (Netty's listener deletes the name it was bound to when it closes, so that name is another.)
 */
final class UnixSocketFile {
    private UnixSocketFile() {}

    /** The name a listener binds before it is renamed to {@code path}: unique to this process. */
    static Path bindName(Path path) {
        return path.resolveSibling(path.getFileName() + ".bind-" + ProcessHandle.current().pid());
    }

    /** Makes {@code path} free to bind: a stale file goes; a live one fails the start, or is taken over. */
    static void clearForBind(Path path, boolean takeOver, Consumer<String> info) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        if (answers(path)) {
            if (!takeOver) {
                throw new IOException("unix socket is in use, cannot continue");
            }
            info.accept("unix socket " + path + " is in use by another process; taking its path over (so_reuseport)");
            return; // replaced atomically once our socket is bound
        }
        Files.deleteIfExists(path);
    }

    private static boolean answers(Path path) {
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            return ch.connect(UnixDomainSocketAddress.of(path));
        } catch (IOException | UnsupportedOperationException e) {
            return false; // nobody listens: a file left by a process that died
        }
    }

    /** The file's identity (device and inode), or null when it cannot be read. */
    static Object fileKey(Path path) {
        try {
            return Files.readAttributes(path, BasicFileAttributes.class).fileKey();
        } catch (IOException e) {
            return null;
        }
    }

    /** Deletes {@code path} if it is still the file {@code ours} names. */
    static void deleteIfOurs(Path path, Object ours) {
        Object now = fileKey(path);
        if (now != null && Objects.equals(now, ours)) {
            try {
                Files.deleteIfExists(path);
            } catch (IOException ignored) {
                // the socket file of a closed listener is harmless
            }
        }
    }
}
