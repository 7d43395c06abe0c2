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
            Await.until(Duration.ofSeconds(10), () -> serverCloseReason(p.log()) != null, p + " logging the server's close");
            seen.add("server closed because: " + serverCloseReason(p.log()));
            return seen;
        }, "select: 7", "E FATAL 08P01 transaction blocks not allowed in statement pooling mode", "EOF",
                "server closed because: transaction blocks not allowed in statement pooling mode");
    }

    private static String serverCloseReason(String log) {
        String marker = "closing because: ";
        return log.lines().filter(l -> l.contains(" S-") && l.contains(marker))
                .map(l -> l.substring(l.indexOf(marker) + marker.length(), l.lastIndexOf(" (age=")))
                .findFirst().orElse(null);
    }
}
