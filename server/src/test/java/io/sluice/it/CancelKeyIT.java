package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.PgCluster;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 15 (predictable cancel keys): a CancelRequest with a wrong key cancels nothing, and the
 * sender cannot tell a wrong guess from a right one: both get the connection closed with
 * nothing written, as PgBouncer does.
 */
class CancelKeyIT {
    /** What a CancelRequest's sender can observe: bytes it got, and how the connection ended. */
    record Answer(int bytes, String end) {
    }

    @Test
    void wrongKeysCancelNothingAndAreAnsweredLikeTheRightOne() throws Exception {
        PgCluster pg = PgCluster.shared();
        try (SluiceFixture sluice = SluiceFixture.start(pg, "postgres = host=127.0.0.1 port=$PGPORT",
                "auth_type = trust\npool_mode = transaction", "\"postgres\" \"\"\n");
             RawClient victim = new RawClient(sluice.port)) {
            victim.send(RawClient.startup(Map.of("user", "postgres", "database", "postgres")));
            assertThat(victim.readUntilReadyOrError()).isNull();
            int pid = victim.backendPid;
            int secret = victim.backendSecret;
            assertThat(pid).as("BackendKeyData pid").isPositive();

            // wrong keys while the victim's query runs: it must finish normally
            victim.send(RawClient.query("select pg_sleep(1.5) /* victim-short */"));
            awaitRunning(pg, "victim-short");
            List<int[]> wrong = new ArrayList<>(List.of(
                    new int[] {pid, secret ^ 1},
                    new int[] {pid, secret ^ 0x80000000},
                    new int[] {pid ^ 1, secret},
                    new int[] {secret & 0x7fffffff, pid}));
            SecureRandom guesses = new SecureRandom();
            for (int i = 0; i < 20; i++) {
                wrong.add(new int[] {pid, guesses.nextInt()});
            }
            Set<Answer> wrongAnswers = new LinkedHashSet<>();
            long wrongNanos = 0;
            for (int[] key : wrong) {
                long t0 = System.nanoTime();
                wrongAnswers.add(sendCancel(sluice.port, key[0], key[1]));
                wrongNanos += System.nanoTime() - t0;
            }
            assertThat(victim.readUntilReadyOrError()).as("query not cancelled by wrong keys").isNull();

            // the right key cancels, every time
            Set<Answer> rightAnswers = new LinkedHashSet<>();
            long rightNanos = 0;
            int rounds = 3;
            for (int i = 0; i < rounds; i++) {
                victim.send(RawClient.query("select pg_sleep(30) /* victim-long-" + i + " */"));
                awaitRunning(pg, "victim-long-" + i);
                long t0 = System.nanoTime();
                rightAnswers.add(sendCancel(sluice.port, pid, secret));
                rightNanos += System.nanoTime() - t0;
                Map<Character, String> error = victim.readUntilReadyOrError();
                assertThat(error).as("the right key cancels").isNotNull().containsEntry('C', "57014");
                assertThat(victim.readUntilReadyOrError()).as("ReadyForQuery follows the error").isNull();
            }
            assertThat(victim.queryOne("select 2")).as("victim still usable").isEqualTo("2");
            assertThat(rightAnswers).hasSize(1);
            Answer right = rightAnswers.iterator().next();

            assertThat(wrongAnswers).as("every wrong guess answered alike").containsExactly(right);
            assertThat(right).isEqualTo(new Answer(0, "eof"));
            System.out.printf("cancel answers: %d wrong keys %.2f ms each on average, %d right ones %.2f ms; all %s%n",
                    wrong.size(), wrongNanos / 1e6 / wrong.size(), rounds, rightNanos / 1e6 / rounds, right);
        }
    }

    /** Sends one CancelRequest on a new connection and reads until the server ends it. */
    static Answer sendCancel(int port, int pid, int secret) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(RawClient.cancelRequest(pid, secret));
            s.getOutputStream().flush();
            InputStream in = s.getInputStream();
            int bytes = 0;
            try {
                while (in.read() >= 0) {
                    bytes++;
                }
                return new Answer(bytes, "eof");
            } catch (SocketTimeoutException e) {
                return new Answer(bytes, "left open");
            } catch (IOException e) {
                return new Answer(bytes, "reset");
            }
        }
    }

    private static void awaitRunning(PgCluster pg, String tag) {
        Await.until(Duration.ofSeconds(10), () -> !pg.query("select pid from pg_stat_activity where state = 'active'"
                + " and query like '%" + tag + "%' and pid <> pg_backend_pid()").isEmpty(), tag + " running");
    }
}
