package io.sluice.it;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Debian's haproxy in the foreground on a config the test writes, with an admin stats socket
 * so the test can read what HAProxy thinks of its servers ({@code show stat}). Stopped by pid.
 */
final class HaproxyProcess implements AutoCloseable {
    static final Path BINARY = Path.of("/usr/sbin/haproxy");
    private final Process process;
    private final Path socket;

    private HaproxyProcess(Process process, Path socket) {
        this.process = process;
        this.socket = socket;
    }

    static boolean available() {
        return Files.isExecutable(BINARY);
    }

    /** Starts haproxy on {@code listen} (everything after the global section's stats socket). */
    static HaproxyProcess start(Path dir, String listen) throws IOException {
        Path sock = dir.resolve("haproxy.sock");
        Path cfg = dir.resolve("haproxy.cfg");
        Files.writeString(cfg, "global\n    stats socket " + sock + " level admin\n" + listen);
        Process p = new ProcessBuilder(BINARY.toString(), "-db", "-f", cfg.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("haproxy.log").toFile()).start();
        return new HaproxyProcess(p, sock);
    }

    /** One server's {@code show stat} row, column name to value; empty until the socket answers. */
    Map<String, String> stat(String proxy, String server) {
        if (!Files.exists(socket)) {
            return Map.of();
        }
        String csv;
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            ch.connect(UnixDomainSocketAddress.of(socket));
            ch.write(ByteBuffer.wrap("show stat\n".getBytes(StandardCharsets.US_ASCII)));
            ByteBuffer buf = ByteBuffer.allocate(1 << 16);
            StringBuilder out = new StringBuilder();
            while (ch.read(buf) > 0) {
                buf.flip();
                out.append(StandardCharsets.US_ASCII.decode(buf));
                buf.clear();
            }
            csv = out.toString();
        } catch (IOException e) {
            return Map.of();
        }
        List<String> lines = csv.lines().toList();
        if (lines.isEmpty() || !lines.get(0).startsWith("# ")) {
            return Map.of();
        }
        String[] names = lines.get(0).substring(2).split(",", -1);
        for (String line : lines.subList(1, lines.size())) {
            String[] v = line.split(",", -1);
            if (v.length > 1 && v[0].equals(proxy) && v[1].equals(server)) {
                Map<String, String> row = new HashMap<>();
                for (int i = 0; i < names.length && i < v.length; i++) {
                    row.put(names[i], v[i]);
                }
                return row;
            }
        }
        return Map.of();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        process.waitFor();
    }
}
