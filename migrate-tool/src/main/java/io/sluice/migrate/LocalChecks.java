package io.sluice.migrate;

import io.sluice.config.ConfigSnapshot;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Checks on this machine: the TLS files the config names are readable, and the listen
 * addresses and Unix socket are free. Stateless.
 */
final class LocalChecks {
    static final List<String> TLS_FILES = List.of("client_tls_key_file", "client_tls_cert_file",
            "client_tls_ca_file", "server_tls_key_file", "server_tls_cert_file", "server_tls_ca_file");

    private LocalChecks() {
    }

    static void tlsFiles(ConfigSnapshot snap, Report r) {
        for (String key : TLS_FILES) {
            String name = snap.settings().string(key);
            if (name.isEmpty()) {
                continue;
            }
            Path p = snap.workingDir().resolve(name);
            if (!Files.isRegularFile(p)) {
                r.add(Severity.ERROR, "tls", key, "", name + ": no such file");
            } else if (!Files.isReadable(p)) {
                r.add(Severity.ERROR, "tls", key, "", name + ": not readable by this user");
            } else {
                r.add(Severity.INFO, "tls", key, "", name + ": readable");
            }
        }
    }

    static void ports(ConfigSnapshot snap, Report r) {
        int port = snap.listenPort();
        for (String addr : snap.listenAddrs()) {
            String host = addr.equals("*") ? "0.0.0.0" : addr;
            try (ServerSocket s = new ServerSocket()) {
                s.setReuseAddress(true);
                s.bind(new InetSocketAddress(InetAddress.getByName(host), port));
                r.add(Severity.INFO, "ports", "listen_addr", "", host + ":" + port + " is free");
            } catch (IOException e) {
                r.add(Severity.ERROR, "ports", "listen_port", "", "cannot listen on " + host + ":" + port
                        + " (" + e.getMessage() + "); is PgBouncer (or another process) still using it?");
            }
        }
        String dir = snap.unixSocketDir();
        if (!dir.isEmpty() && !dir.startsWith("@")) {
            Path sock = Path.of(dir).resolve(".s.PGSQL." + port);
            if (Files.exists(sock)) {
                r.add(Severity.WARNING, "ports", "unix_socket_dir", "", sock
                        + " exists: another pooler or PostgreSQL may be using this socket");
            } else if (!Files.isDirectory(Path.of(dir))) {
                r.add(Severity.ERROR, "ports", "unix_socket_dir", "", dir + ": no such directory");
            }
        }
    }
}
