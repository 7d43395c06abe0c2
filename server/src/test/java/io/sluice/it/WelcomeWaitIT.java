package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Logins waiting for their pool's first server (PgBouncer's CL_WAITING_LOGIN) sit in the pool's
 * waiting list: SHOW POOLS counts them in cl_waiting, SHOW CLIENTS lists them as waiting, and
 * SHOW LISTS counts them in used_clients, not in login_clients. The first server connect hangs
 * (a silent PostgreSQL stand-in) so the wait can be seen; same scenario on Debian's PgBouncer.
 */
class WelcomeWaitIT {
    private static final int LOGINS = 3;

    @Test
    void loginsWaitingForThePoolsFirstServerShowAsWaiting() throws Exception {
        Map<String, List<String>> seen = new LinkedHashMap<>();
        // one silent stand-in for both poolers in turn: the first server connect never completes
        try (PostgresGate gate = new PostgresGate(1).mode(PostgresGate.Mode.SILENT)) {
            String ini = "[databases]\ngated = host=127.0.0.1 port=" + gate.port + " dbname=x\n[pgbouncer]\n"
                    + "auth_type = trust\nadmin_users = postgres\nserver_connect_timeout = 30\n";
            Pooler.inTurn(ini, "\"postgres\" \"\"\n", p -> {
                List<Socket> logins = new ArrayList<>();
                try {
                    for (int i = 0; i < LOGINS; i++) {
                        logins.add(startup(p.port(), "gated"));
                    }
                    Await.until(Duration.ofSeconds(20), () -> String.valueOf(LOGINS)
                            .equals(PauseResumeIT.cell(p.port(), "SHOW POOLS", "gated", "cl_waiting")), p + ": cl_waiting = " + LOGINS);
                    List<String> view = new ArrayList<>();
                    view.add("login_clients=" + PauseResumeIT.cell(p.port(), "SHOW LISTS", "login_clients", "items"));
                    view.add("used_clients=" + PauseResumeIT.cell(p.port(), "SHOW LISTS", "used_clients", "items"));
                    view.add("clients=" + states(p));
                    seen.put(p.toString(), view);
                } finally {
                    for (Socket s : logins) {
                        s.close();
                    }
                }
            });
        }
        System.out.println("logins waiting for the first server: " + seen);
        // the console's own connection is the fourth used client
        assertThat(seen.get("sluice")).containsExactly("login_clients=0", "used_clients=" + (LOGINS + 1),
                "clients=[gated waiting, gated waiting, gated waiting]");
        if (seen.containsKey("pgbouncer")) {
            assertThat(seen.get("sluice")).as("Sluice as PgBouncer").isEqualTo(seen.get("pgbouncer"));
        }
    }

    /** Opens a connection and sends a startup packet for user postgres; no further reading. */
    private static Socket startup(int port, String db) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(body);
        out.writeInt(196608);
        for (String s : new String[] {"user", "postgres", "database", db}) {
            out.write(s.getBytes(StandardCharsets.UTF_8));
            out.write(0);
        }
        out.write(0);
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
        DataOutputStream wire = new DataOutputStream(socket.getOutputStream());
        wire.writeInt(body.size() + 4);
        wire.write(body.toByteArray());
        wire.flush();
        return socket;
    }

    private static ProcessResult console(Pooler p, String show) {
        return ProcessRunner.of("psql", "-X", "-A", "-h", "127.0.0.1", "-p", String.valueOf(p.port()),
                "-U", "postgres", "-d", "pgbouncer", "-c", show).env("PGOPTIONS", null).run().requireSuccess();
    }

    /**
     * "database state" of the SHOW CLIENTS rows of database gated (the console's own row is left
     * out: 1.18 calls an unlinked active client "active", 1.25 "idle", as Sluice does).
     */
    private static List<String> states(Pooler p) {
        String[] lines = console(p, "SHOW CLIENTS").stdout().split("\n");
        List<String> names = List.of(lines[0].split("\\|", -1));
        List<String> out = new ArrayList<>();
        for (String line : lines) {
            String[] cells = line.split("\\|", -1);
            if (cells.length == names.size() && cells[0].equals("C") && cells[names.indexOf("database")].equals("gated")) {
                out.add(cells[names.indexOf("database")] + " " + cells[names.indexOf("state")]);
            }
        }
        return out;
    }
}
