package io.sluice.compat.suite;

import io.sluice.testkit.Await;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Workloads copy, listen-notify (session pool) and cancel. */
class CopyNotifyCancelCompatIT {
    @BeforeAll
    static void tables() {
        CompatTargets t = CompatTargets.get();
        t.pg.exec(t.database, "CREATE TABLE IF NOT EXISTS copy_in (id int, note text);"
                + "ALTER TABLE copy_in OWNER TO " + CompatTargets.USER);
    }

    @Test
    void copyOutRowsAndTag() throws Exception {
        List<String> seen = SideBySide.same("COPY TO STDOUT", p -> {
            try (WireClient c = CompatTargets.get().login(p, "compat")) {
                return c.simple("COPY (SELECT g, 'row ' || g FROM generate_series(1, 3) g) TO STDOUT");
            }
        });
        assertThat(seen).containsExactly("H", "d 1\trow 1", "d 2\trow 2", "d 3\trow 3", "c", "C COPY 3", "Z I");
    }

    @Test
    void copyInRowsArriveAndTag() throws Exception {
        List<String> seen = SideBySide.same("COPY FROM STDIN", p -> {
            try (WireClient c = CompatTargets.get().login(p, "compat")) {
                List<String> all = new ArrayList<>(c.simple("BEGIN"));
                all.addAll(c.simple("COPY copy_in FROM STDIN", "1\ta\n2\tb\n3\t\\N\n"));
                all.addAll(c.simple("SELECT id, note FROM copy_in ORDER BY id"));
                all.addAll(c.simple("ROLLBACK"));
                return all;
            }
        });
        assertThat(seen).containsSubsequence("G", "C COPY 3", "D 1|a", "D 2|b", "D 3|NULL", "C ROLLBACK");
    }

    @Test
    void copyInBadDataFailsAndSessionStaysUsable() throws Exception {
        List<String> seen = SideBySide.same("COPY FROM STDIN bad data", p -> {
            try (WireClient c = CompatTargets.get().login(p, "compat")) {
                List<String> all = new ArrayList<>(c.simple("COPY copy_in FROM STDIN", "x\ty\n"));
                all.addAll(c.simple("SELECT 'still here'"));
                return all;
            }
        });
        assertThat(seen.get(1)).startsWith("E 22P02 ERROR invalid input syntax for type integer: \"x\"");
        assertThat(seen).endsWith("D still here", "C SELECT 1", "Z I");
    }

    @Test
    void copyFailFromClient() throws Exception {
        List<String> seen = SideBySide.same("CopyFail", p -> {
            try (WireClient c = CompatTargets.get().login(p, "compat")) {
                return c.simple("COPY copy_in FROM STDIN", null);
            }
        });
        assertThat(seen).containsExactly("G", "E 57014 ERROR COPY from stdin failed: no data", "Z I");
    }

    @Test
    void listenNotifyDeliversChannelAndPayload() throws Exception {
        List<String> seen = SideBySide.same("LISTEN/NOTIFY", p -> {
            try (WireClient listener = CompatTargets.get().login(p, "compat_session");
                 WireClient sender = CompatTargets.get().login(p, "compat_session")) {
                List<String> all = new ArrayList<>(listener.simple("LISTEN jobs"));
                all.addAll(sender.simple("NOTIFY jobs, 'payload-1'"));
                all.add(listener.awaitNotification());
                return all;
            }
        });
        assertThat(seen).containsExactly("C LISTEN", "Z I", "C NOTIFY", "Z I", "A jobs payload-1");
    }

    @Test
    void notifyInsideTransactionIsDeliveredAtCommit() throws Exception {
        List<String> seen = SideBySide.same("NOTIFY in transaction", p -> {
            try (WireClient listener = CompatTargets.get().login(p, "compat_session");
                 WireClient sender = CompatTargets.get().login(p, "compat_session")) {
                List<String> all = new ArrayList<>(listener.simple("LISTEN tx"));
                all.addAll(sender.simple("BEGIN; NOTIFY tx, 'a'; NOTIFY tx, 'a'; NOTIFY tx, 'b'"));
                all.addAll(listener.simple("SELECT 'before commit'"));
                all.addAll(sender.simple("COMMIT"));
                all.add(listener.awaitNotification());
                all.add(listener.awaitNotification());
                return all;
            }
        });
        // duplicates within one transaction fold into one; nothing arrives before COMMIT
        assertThat(seen).containsSubsequence("D before commit", "C COMMIT", "A tx a", "A tx b")
                .noneMatch(s -> s.startsWith("A") && seen.indexOf(s) < seen.indexOf("C COMMIT"));
    }

    @Test
    void notifyToOwnSessionArrivesInlineAndUnlistenStops() throws Exception {
        List<String> seen = SideBySide.same("own NOTIFY, UNLISTEN", p -> {
            try (WireClient c = CompatTargets.get().login(p, "compat_session")) {
                List<String> all = new ArrayList<>(c.simple("LISTEN self"));
                all.addAll(c.simple("NOTIFY self, 'one'"));
                all.addAll(c.simple("UNLISTEN self"));
                all.addAll(c.simple("NOTIFY self, 'two'"));
                return all;
            }
        });
        assertThat(seen).containsExactly("C LISTEN", "Z I", "C NOTIFY", "A self one", "Z I", "C UNLISTEN", "Z I", "C NOTIFY", "Z I");
    }

    @Test
    void cancelStopsRunningQuery() throws Exception {
        List<String> seen = SideBySide.same("cancel", p -> {
            try (WireClient c = CompatTargets.get().login(p, "compat")) {
                CompletableFuture<List<String>> running = CompletableFuture.supplyAsync(() -> {
                    try {
                        return c.simple("SELECT pg_sleep(30)");
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
                awaitActive(CompatTargets.get(), "SELECT pg_sleep(30)");
                WireClient.cancel(p, c.backendPid, c.backendKey);
                List<String> all = new ArrayList<>(running.get(20, TimeUnit.SECONDS));
                all.addAll(c.simple("SELECT 'after cancel'"));
                return all;
            }
        });
        assertThat(seen).containsExactly("T pg_sleep", "E 57014 ERROR canceling statement due to user request", "Z I",
                "T ?column?", "D after cancel", "C SELECT 1", "Z I");
    }

    @Test
    void cancelWithWrongKeyIsIgnored() throws Exception {
        List<String> seen = SideBySide.same("cancel with wrong key", p -> {
            try (WireClient c = CompatTargets.get().login(p, "compat")) {
                CompletableFuture<List<String>> running = CompletableFuture.supplyAsync(() -> {
                    try {
                        return c.simple("SELECT pg_sleep(1.5), 'finished'");
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
                awaitActive(CompatTargets.get(), "SELECT pg_sleep(1.5), 'finished'");
                WireClient.cancel(p, c.backendPid, c.backendKey + 1);
                return running.get(20, TimeUnit.SECONDS);
            }
        });
        assertThat(seen).containsExactly("T pg_sleep,?column?", "D |finished", "C SELECT 1", "Z I");
    }

    private static void awaitActive(CompatTargets t, String query) {
        Await.until(Duration.ofSeconds(10), () -> !t.pg.query("SELECT 1 FROM pg_stat_activity WHERE state = 'active' AND query = '"
                + query.replace("'", "''") + "'").isEmpty(), "query running on the server: " + query);
    }
}
