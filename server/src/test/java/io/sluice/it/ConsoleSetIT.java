package io.sluice.it;

import io.sluice.testkit.PgBouncerProcess;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console's SET, the same commands on Sluice and on Debian's PgBouncer (when installed):
 * a key read only at start is answered with success and left as it was (PgBouncer's config
 * parser ignores it), an unknown key or a bad value is "SET failed", a run-time key changes.
 */
class ConsoleSetIT {
    private static final String INI = "[databases]\nplaceholder = host=127.0.0.1 port=1\n[pgbouncer]\n"
            + "auth_type = trust\nadmin_users = postgres\n";
    private static final String USERS = "\"postgres\" \"\"\n";
    private static final List<String> COMMANDS = List.of("SET listen_port = 1", "SHOW CONFIG listen_port",
            "SET unix_socket_dir = '/nonexistent'", "SET nonsense = 1", "SET default_pool_size = abc",
            "SET default_pool_size = 9", "SHOW CONFIG default_pool_size");

    @Test
    void setAnswersAsPgBouncerDoes() {
        Map<String, List<String>> seen = new LinkedHashMap<>();
        for (String name : List.of("sluice", "pgbouncer")) {
            if (name.equals("pgbouncer") && !PgBouncerProcess.available()) {
                continue;
            }
            try (Pooler p = name.equals("sluice") ? Pooler.sluice(INI, USERS) : Pooler.pgbouncer(INI, USERS)) {
                int port = p.port();
                seen.put(name, COMMANDS.stream().map(c -> answer(c, port)).toList());
            }
        }
        System.out.println("console SET: " + seen);
        assertThat(seen.get("sluice")).containsExactly("SET listen_port=1", "listen_port=" + "<port>",
                "SET unix_socket_dir=/nonexistent", "ERROR:  SET failed", "ERROR:  SET failed",
                "SET default_pool_size=9", "default_pool_size=9");
        if (seen.containsKey("pgbouncer")) {
            assertThat(seen.get("sluice")).as("Sluice as PgBouncer").isEqualTo(seen.get("pgbouncer"));
        }
    }

    /** The command tag or error of a SET; for SHOW CONFIG key, the key's value (the listen port masked). */
    private static String answer(String command, int port) {
        boolean show = command.startsWith("SHOW CONFIG ");
        String key = show ? command.substring("SHOW CONFIG ".length()) : null;
        ProcessResult r = ProcessRunner.of("psql", "-X", "-A", "-t", "-h", "127.0.0.1", "-p", String.valueOf(port),
                "-U", "postgres", "-d", "pgbouncer", "-c", show ? "SHOW CONFIG" : command, "-c", "SHOW VERSION")
                .env("PGOPTIONS", null).run();
        if (show) {
            return r.stdout().lines().filter(l -> l.startsWith(key + "|")).findFirst()
                    .map(l -> key + "=" + l.split("\\|")[1].replace(String.valueOf(port), "<port>")).orElse(r.stdout());
        }
        return r.stderr().lines().filter(l -> l.startsWith("ERROR")).findFirst()
                .orElse(r.stdout().lines().filter(l -> l.startsWith("SET")).findFirst().orElse(r.describe()));
    }
}
