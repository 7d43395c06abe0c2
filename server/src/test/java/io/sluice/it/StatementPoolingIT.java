package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.PgCluster;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Statement pooling side by side with PgBouncer: a statement that leaves a transaction open ends
 * the client with PgBouncer's FATAL, and the statement's own reply (the BEGIN tag, which came from
 * the server in the same read as the ReadyForQuery that shows the open transaction) never reaches
 * the client, as PgBouncer drops it with the connection.
 */
class StatementPoolingIT {
    private static final String USERS = "\"postgres\" \"\"\n";
    private static final String REFUSAL = "transaction blocks not allowed in statement pooling mode";

    @Test
    void aTransactionBlockEndsTheClientWithoutItsBeginTag() throws Exception {
        String ini = "[databases]\nstmt = host=127.0.0.1 port=" + PgCluster.shared().port()
                + " dbname=postgres pool_mode=statement\n[pgbouncer]\nauth_type = trust\n";
        Pooler.sameAnswers("statement pooling BEGIN", ini, USERS, p -> {
            List<String> seen = new ArrayList<>();
            try (RawClient c = new RawClient(p.port())) {
                c.send(RawClient.startup(Map.of("user", "postgres", "database", "stmt")));
                if (c.readUntilReadyOrError() != null) {
                    return List.of("login failed");
                }
                seen.add("select: " + c.queryOne("select 7"));
                c.send(RawClient.query("begin"));
                seen.addAll(c.describeUntilClosed(4));
            }
            Await.until(Duration.ofSeconds(10), () -> p.log().contains("pooler error: " + REFUSAL), p + " logging the refusal");
            seen.add("server closed with the same reason: " + p.loggedServerClose(REFUSAL));
            return seen;
        }, "select: 7", "E FATAL 08P01 " + REFUSAL, "EOF",
                "server closed with the same reason: true");
    }
}
