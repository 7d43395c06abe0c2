package io.sluice.admin;

import static io.sluice.admin.ConsoleRunner.STATS;
import static io.sluice.admin.ConsoleRunner.err;
import static io.sluice.admin.ConsoleRunner.tag;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Control commands: PgBouncer's checks in its order, its texts, its tags, and the waits. */
class ControlCommandsTest {

    private final ConsoleRunner r = new ConsoleRunner();

    @Test
    void pauseAllWaitsForTheContext() {
        r.ctx.pauseDone = new CompletableFuture<>();
        var answer = r.console.execute("PAUSE", ConsoleRunner.ADMIN).toCompletableFuture();
        assertThat(answer).isNotDone();
        assertThat(r.ctx.calls).containsExactly("pause null");
        assertThat(r.ctx.infoLog).containsExactly("PAUSE command issued");
        r.ctx.pauseDone.complete(null);
        assertThat(answer.join()).containsExactly(tag("PAUSE"));
    }

    @Test
    void pauseOneDatabase() {
        assertThat(r.admin("pause app")).containsExactly(tag("PAUSE"));
        assertThat(r.ctx.calls).containsExactly("pause app");
        assertThat(r.ctx.infoLog).containsExactly("PAUSE 'app' command issued");
    }

    @Test
    void pauseRefusals() {
        assertThat(r.admin("pause nope")).containsExactly(err("no such database: nope"));
        assertThat(r.admin("pause pgbouncer")).containsExactly(err("cannot pause admin db: pgbouncer"));
        r.ctx.pauseMode = PauseMode.PAUSE;
        assertThat(r.admin("pause")).containsExactly(err("already suspended/paused"));
        assertThat(r.admin("pause app")).containsExactly(err("already suspended/paused"));
        assertThat(r.ctx.calls).isEmpty();
        assertThat(r.ctx.errorLog).hasSize(4);
    }

    @Test
    void pauseRegistersAutoDatabases() {
        r.ctx.autoDatabases.add("fresh");
        assertThat(r.admin("pause fresh")).containsExactly(tag("PAUSE"));
        assertThat(r.ctx.calls).containsExactly("register fresh", "pause fresh");
    }

    @Test
    void databaseNamesAreCaseSensitive() {
        assertThat(r.admin("PAUSE APP")).containsExactly(err("no such database: APP"));
    }

    @Test
    void resumeRules() {
        assertThat(r.admin("resume")).containsExactly(err("pooler is not paused/suspended"));
        r.ctx.pauseMode = PauseMode.SUSPEND;
        assertThat(r.admin("resume")).containsExactly(tag("RESUME"));
        r.ctx.shuttingDown = true;
        assertThat(r.admin("resume")).containsExactly(err("pooler is shutting down"));
        assertThat(r.admin("resume app")).containsExactly(err("database app is not paused"));
        assertThat(r.admin("resume nope")).containsExactly(err("no such database: nope"));
        r.ctx.databases.set(1, FakeAdminContext.database("app", "h", 5432, "appdb", null, 20, null, true));
        assertThat(r.admin("resume app")).containsExactly(tag("RESUME"));
        assertThat(r.ctx.calls).containsExactly("resume null", "resume app");
    }

    @Test
    void resumeDoesNotRegisterAutoDatabases() {
        r.ctx.autoDatabases.add("fresh");
        assertThat(r.admin("resume fresh")).containsExactly(err("no such database: fresh"));
    }

    @Test
    void suspendRules() {
        r.ctx.suspendDone = new CompletableFuture<>();
        var answer = r.console.execute("suspend", ConsoleRunner.ADMIN).toCompletableFuture();
        assertThat(answer).isNotDone();
        r.ctx.suspendDone.complete(null);
        assertThat(answer.join()).containsExactly(tag("SUSPEND"));

        assertThat(r.admin("suspend now")).containsExactly(err("invalid command 'suspend now', use SHOW HELP;"));
        assertThat(r.run("suspend now", STATS)).containsExactly(err("invalid command 'suspend now', use SHOW HELP;"));
        r.ctx.databases.set(1, FakeAdminContext.database("app", "h", 5432, "appdb", null, 20, null, true));
        assertThat(r.admin("suspend")).containsExactly(err("cannot suspend with paused databases"));
        r.ctx.pauseMode = PauseMode.PAUSE;
        assertThat(r.admin("suspend")).containsExactly(err("already suspended/paused"));
    }

    @Test
    void disableAndEnable() {
        assertThat(r.admin("disable")).containsExactly(err("a database is required"));
        assertThat(r.admin("enable")).containsExactly(err("a database is required"));
        assertThat(r.admin("disable nope")).containsExactly(err("no such database: nope"));
        assertThat(r.admin("disable pgbouncer")).containsExactly(err("cannot disable admin db: pgbouncer"));
        assertThat(r.admin("enable pgbouncer")).containsExactly(err("cannot enable admin db: pgbouncer"));
        assertThat(r.admin("disable app")).containsExactly(tag("DISABLE"));
        assertThat(r.admin("enable app")).containsExactly(tag("ENABLE"));
        assertThat(r.ctx.calls).containsExactly("disable app", "enable app");
        assertThat(r.ctx.infoLog).containsExactly("DISABLE 'nope' command issued", "DISABLE 'pgbouncer' command issued",
                "ENABLE 'pgbouncer' command issued", "DISABLE 'app' command issued", "ENABLE 'app' command issued");
    }

    @Test
    void reconnect() {
        assertThat(r.admin("reconnect")).containsExactly(tag("RECONNECT"));
        assertThat(r.admin("reconnect app")).containsExactly(tag("RECONNECT"));
        assertThat(r.admin("reconnect pgbouncer")).containsExactly(err("cannot reconnect admin db: pgbouncer"));
        assertThat(r.ctx.calls).containsExactly("reconnect null", "reconnect app");
    }

    @Test
    void kill() {
        assertThat(r.admin("kill app")).containsExactly(tag("KILL"));
        assertThat(r.admin("kill")).containsExactly(tag("KILL"));
        assertThat(r.admin("kill pgbouncer")).containsExactly(err("cannot kill admin db: pgbouncer"));
        r.ctx.pauseMode = PauseMode.PAUSE;
        assertThat(r.admin("kill app")).containsExactly(err("already suspended/paused"));
        assertThat(r.ctx.calls).containsExactly("kill app", "kill null");
    }

    @Test
    void killClient() {
        assertThat(r.admin("kill_client 7")).containsExactly(tag("KILL_CLIENT"));
        assertThat(r.admin("kill_client 8")).containsExactly(err("client not found"));
        assertThat(r.admin("kill_client")).containsExactly(err("invalid client pointer supplied"));
        assertThat(r.admin("kill_client abc")).containsExactly(err("invalid client pointer supplied"));
        // sscanf("%llu") reads the leading digits and ignores the rest
        assertThat(r.admin("kill_client 7abc")).containsExactly(tag("KILL_CLIENT"));
        assertThat(r.ctx.calls).containsExactly("kill_client 7", "kill_client 8", "kill_client 7");
    }

    @Test
    void scanfLikeParsing() {
        assertThat(ControlCommands.parseUnsignedLongLikeScanf(" 12")).isEqualTo(12L);
        assertThat(ControlCommands.parseUnsignedLongLikeScanf("-1")).isEqualTo(-1L);
        assertThat(ControlCommands.parseUnsignedLongLikeScanf("99999999999999999999999")).isEqualTo(-1L);
        assertThat(ControlCommands.parseUnsignedLongLikeScanf("+")).isNull();
        assertThat(ControlCommands.parseUnsignedLongLikeScanf("")).isNull();
    }

    @Test
    void waitClose() {
        r.ctx.waitCloseDone = new CompletableFuture<>();
        var answer = r.console.execute("wait_close app", ConsoleRunner.ADMIN).toCompletableFuture();
        assertThat(answer).isNotDone();
        r.ctx.waitCloseDone.complete(null);
        assertThat(answer.join()).containsExactly(tag("WAIT_CLOSE"));
        assertThat(r.admin("wait_close pgbouncer")).containsExactly(err("cannot wait in admin db: pgbouncer"));
        assertThat(r.admin("wait_close nope")).containsExactly(err("no such database: nope"));
        assertThat(r.admin("wait_close")).containsExactly(tag("WAIT_CLOSE"));
    }

    @Test
    void reload() {
        assertThat(r.admin("reload")).containsExactly(tag("RELOAD"));
        assertThat(r.admin("reload now")).containsExactly(err("invalid command 'reload now', use SHOW HELP;"));
        r.ctx.reloadDone = CompletableFuture.completedFuture(false);
        assertThat(r.admin("reload")).containsExactly(
                new AdminResult.AdminError("F0000", "RELOAD failed, see logs for additional details"));
        assertThat(r.ctx.infoLog).containsExactly("RELOAD command issued", "RELOAD command issued");
    }

    @Test
    void shutdownForms() {
        assertThat(r.admin("shutdown")).containsExactly(new AdminResult.Close());
        assertThat(r.admin("shutdown wait_for_servers")).containsExactly(tag("SHUTDOWN"));
        assertThat(r.admin("SHUTDOWN WAIT_FOR_CLIENTS;")).containsExactly(tag("SHUTDOWN"));
        assertThat(r.admin("shutdown later")).containsExactly(err("invalid command 'shutdown later', use SHOW HELP;"));
        assertThat(r.ctx.calls).containsExactly("shutdown IMMEDIATE", "shutdown WAIT_FOR_SERVERS",
                "shutdown WAIT_FOR_CLIENTS");
        assertThat(r.ctx.infoLog).containsExactly("SHUTDOWN command issued",
                "SHUTDOWN WAIT_FOR_SERVERS command issued", "SHUTDOWN WAIT_FOR_CLIENTS command issued");
    }

    @Test
    void realSetReturnsKeyValueTag() {
        assertThat(r.admin("set default_pool_size = 30")).containsExactly(tag("SET default_pool_size=30"));
        assertThat(r.admin("set admin_users = 'a, b'")).containsExactly(tag("SET admin_users=a, b"));
        r.ctx.setOutcome = SetOutcome.FAILED;
        assertThat(r.admin("set nonsense = 1")).containsExactly(err("SET failed"));
        r.ctx.setOutcome = SetOutcome.OK_TLS_NOT_APPLIED;
        assertThat(r.admin("set client_tls_sslmode = require")).containsExactly(
                new AdminResult.Notice("TLS settings could not be applied, still using old configuration", null),
                tag("SET client_tls_sslmode=require"));
    }

    @Test
    void fakeSetIsIgnoredForEveryone() {
        List<AdminResult> expected = List.of(new AdminResult.Notice("SET ignored", null), tag("SET"));
        assertThat(r.admin("SET client_encoding TO 'UTF8'")).isEqualTo(expected);
        assertThat(r.run("set DateStyle = ISO", STATS)).isEqualTo(expected);
        assertThat(r.ctx.calls).isEmpty();
    }

    @Test
    void unknownCommandWords() {
        assertThat(r.admin("set x")).containsExactly(err("invalid command 'set x', use SHOW HELP;"));
        assertThat(r.admin("help")).containsExactly(err("invalid command 'help', use SHOW HELP;"));
        assertThat(r.admin("pools")).containsExactly(err("invalid command 'pools', use SHOW HELP;"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"pause", "pause app", "resume", "resume app", "suspend", "disable app", "enable app",
        "reconnect", "kill", "kill_client 7", "wait_close", "reload", "shutdown", "shutdown wait_for_clients",
        "set default_pool_size = 5", "show fds"})
    void statsUsersGetAdminAccessNeeded(String query) {
        assertThat(r.run(query, STATS)).containsExactly(err("admin access needed"));
        assertThat(r.ctx.calls).isEmpty();
    }

    @Test
    void cancelResumesUnlessShuttingDown() {
        r.console.handleCancel();
        assertThat(r.ctx.calls).isEmpty();
        r.ctx.pauseMode = PauseMode.PAUSE;
        r.console.handleCancel();
        assertThat(r.ctx.calls).containsExactly("resume null");
        r.ctx.shuttingDown = true;
        r.console.handleCancel();
        assertThat(r.ctx.calls).containsExactly("resume null");
    }

    @Test
    void contextFailuresFailTheStage() {
        AdminConsole console = new AdminConsole(new FakeAdminContext() {
            @Override
            public List<PoolRow> pools() {
                throw new IllegalStateException("boom");
            }
        });
        var answer = console.execute("show pools", ConsoleRunner.ADMIN).toCompletableFuture();
        assertThat(answer).isCompletedExceptionally();
    }
}
