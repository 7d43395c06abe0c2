package io.sluice.runtime;

import io.sluice.config.ConfigLoader;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code sluice} without a config file: a throwaway PostgreSQL plus Sluice in front of it on
 * 127.0.0.1:6432 (trust auth, transaction pooling), for trying Sluice out. Everything is
 * removed when Sluice stops.
 */
public final class QuickStart implements QuickStarter {
    static final int PORT = 6432;

    @Override
    public Lifecycle start(CliOptions options) throws Exception {
        LocalPostgres pg = LocalPostgres.start();
        Runtime.getRuntime().addShutdownHook(new Thread(pg::close, "quickstart-postgres-stop"));
        Path dir = pg.dir();
        Files.writeString(dir.resolve("userlist.txt"), "\"postgres\" \"\"\n");
        Path ini = dir.resolve("pgbouncer.ini");
        Files.writeString(ini, String.join("\n",
                "[databases]",
                "* = host=127.0.0.1 port=" + pg.port(),
                "[pgbouncer]",
                "listen_addr = 127.0.0.1",
                "listen_port = " + PORT,
                "unix_socket_dir = " + dir,
                "auth_type = trust",
                "auth_file = " + dir.resolve("userlist.txt"),
                "admin_users = postgres",
                "pool_mode = transaction",
                "ignore_startup_parameters = extra_float_digits",
                ""));
        Lifecycle lifecycle = SluiceStarter.start(ConfigLoader.load(ini), options);
        lifecycle.terminated().whenComplete((code, e) -> pg.close());
        System.out.println();
        System.out.println("Sluice is up in front of a throwaway PostgreSQL (config: " + ini + "). Connect with:");
        System.out.println("    psql -h 127.0.0.1 -p " + PORT + " -U postgres postgres");
        System.out.println("Admin console:  psql -h 127.0.0.1 -p " + PORT + " -U postgres pgbouncer");
        System.out.println("Stop with Ctrl-C.");
        return lifecycle;
    }
}
