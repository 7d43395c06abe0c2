package io.sluice.it;

import io.sluice.config.ConfigLoader;
import io.sluice.runtime.SluiceServer;
import io.sluice.testkit.FreePorts;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ScratchDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A Sluice server started in the test JVM from an ini text (and userlist), listening on a free
 * port of 127.0.0.1 and on a private unix socket dir.
 */
final class SluiceFixture implements AutoCloseable {
    final Path dir;
    final int port;
    final SluiceServer server;

    private SluiceFixture(Path dir, int port, SluiceServer server) {
        this.dir = dir;
        this.port = port;
        this.server = server;
    }

    /** {@code pgbouncerSection} lines go under [pgbouncer]; listen settings are added here. */
    static SluiceFixture start(PgCluster pg, String databases, String pgbouncerSection, String userlist) throws Exception {
        Path dir = ScratchDir.create("it");
        int port = FreePorts.next();
        Files.writeString(dir.resolve("userlist.txt"), userlist == null ? "" : userlist);
        String ini = "[databases]\n" + databases.replace("$PGPORT", String.valueOf(pg.port())) + "\n"
                + "[pgbouncer]\n"
                + "listen_addr = 127.0.0.1\n"
                + "listen_port = " + port + "\n"
                + "unix_socket_dir = " + dir + "\n"
                + "auth_file = " + dir.resolve("userlist.txt") + "\n"
                + "log_stats = 0\n"
                + pgbouncerSection + "\n";
        Path cfg = dir.resolve("pgbouncer.ini");
        Files.writeString(cfg, ini);
        SluiceServer server = new SluiceServer(ConfigLoader.load(cfg));
        io.sluice.runtime.Consoles.attach(server);
        server.start();
        return new SluiceFixture(dir, port, server);
    }

    @Override
    public void close() throws Exception {
        server.stopNow(0);
        server.terminated().get(10, TimeUnit.SECONDS);
        ScratchDir.delete(dir);
    }
}
