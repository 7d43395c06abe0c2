package io.sluice.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A stand-in for the Sluice server jar, packed into a jar by {@link SluiceProcessTest}: reads
 * the [pgbouncer] section of the ini given as its argument (last value wins), exits with
 * {@code fake_exit} if set, otherwise listens on listen_addr:listen_port and closes every
 * connection. Uses the JDK only and no nested classes, so this one class file is the jar.
 */
public final class FakeSluiceServer {
    private FakeSluiceServer() {}

    public static void main(String[] args) throws IOException {
        Map<String, String> settings = pgbouncerSection(Files.readAllLines(Path.of(args[0])));
        if (settings.containsKey("fake_exit")) {
            System.err.println("fake sluice: exiting with " + settings.get("fake_exit"));
            System.exit(Integer.parseInt(settings.get("fake_exit")));
        }
        String addr = settings.get("listen_addr");
        int port = Integer.parseInt(settings.get("listen_port"));
        try (ServerSocket server = new ServerSocket(port, 50, InetAddress.getByName(addr))) {
            System.out.println("fake sluice listening on " + addr + ":" + port + " cwd=" + Path.of("").toAbsolutePath());
            System.out.flush();
            while (true) {
                Socket s = server.accept();
                s.close();
            }
        }
    }

    private static Map<String, String> pgbouncerSection(List<String> lines) {
        Map<String, String> out = new HashMap<>();
        boolean inside = false;
        for (String raw : lines) {
            String line = raw.strip();
            if (line.startsWith("[")) {
                inside = line.equalsIgnoreCase("[pgbouncer]");
            } else if (inside && line.contains("=") && !line.startsWith(";") && !line.startsWith("#")) {
                int eq = line.indexOf('=');
                out.put(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
            }
        }
        return out;
    }
}
