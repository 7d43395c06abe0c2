package io.sluice.it;

import io.sluice.testkit.PgCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 14, acceptance 5: hostile and odd extended-protocol input in transaction pooling gets the
 * answer PostgreSQL itself gives (the same messages and SQLSTATEs as a direct connection), and
 * 10,000 distinct statements from one client leave each server with at most
 * max_prepared_statements of them.
 */
class PreparedStatementBadInputIT {
    static PgCluster pg;
    static SluiceFixture sluice;

    @BeforeAll
    static void start() throws Exception {
        pg = PgCluster.shared();
        sluice = SluiceFixture.start(pg, "postgres = host=127.0.0.1 port=$PGPORT pool_size=2",
                "auth_type = trust\npool_mode = transaction\nmax_prepared_statements = 200", "\"postgres\" \"\"\n");
    }

    @AfterAll
    static void stop() throws Exception {
        sluice.close();
    }

    static RawClient login(int port) throws IOException {
        RawClient c = new RawClient(port);
        c.send(RawClient.startup(Map.of("user", "postgres", "database", "postgres")));
        assertThat(c.readUntilReadyOrError()).isNull();
        return c;
    }

    static byte[] msg(char type, byte[]... parts) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            body.writeBytes(p);
        }
        return ByteBuffer.allocate(5 + body.size()).put((byte) type).putInt(4 + body.size())
                .put(body.toByteArray()).array();
    }

    static byte[] cstr(String s) {
        return (s + "\0").getBytes(StandardCharsets.UTF_8);
    }

    static byte[] parse(String name, String sql, int declaredCount, int oids) {
        ByteBuffer types = ByteBuffer.allocate(2 + 4 * oids).putShort((short) declaredCount);
        for (int i = 0; i < oids; i++) {
            types.putInt(23);
        }
        return msg('P', cstr(name), cstr(sql), types.array());
    }

    static byte[] parse(String name, String sql) {
        return parse(name, sql, 0, 0);
    }

    static byte[] bind(String statement) {
        return msg('B', cstr(""), cstr(statement), new byte[] {0, 0, 0, 0, 0, 0});
    }

    static byte[] execute() {
        return msg('E', cstr(""), new byte[4]);
    }

    static byte[] sync() {
        return msg('S');
    }

    static byte[] describeOrClose(char type, String name) {
        return msg(type, new byte[] {'S'}, cstr(name));
    }

    static byte[] all(byte[]... messages) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] m : messages) {
            out.writeBytes(m);
        }
        return out.toByteArray();
    }

    /** Sends {@code bytes} and reads up to {@code readies} ReadyForQuery: "1", "E 26000", "D 1", "Z I"... */
    static List<String> exchange(RawClient c, byte[] bytes, int readies) throws IOException {
        c.send(bytes);
        List<String> out = new ArrayList<>();
        int seen = 0;
        while (seen < readies) {
            RawClient.Message m = c.readMessage();
            switch (m.type()) {
                case 'E' -> out.add("E " + RawClient.fields(m.body()).get('C'));
                case 'Z' -> {
                    out.add("Z " + (char) m.body()[0]);
                    seen++;
                }
                case 'D' -> {
                    int n = ByteBuffer.wrap(m.body(), 2, 4).getInt();
                    out.add("D " + new String(m.body(), 6, n, StandardCharsets.UTF_8));
                }
                case 'N', 'S' -> { }
                default -> out.add(String.valueOf(m.type()));
            }
        }
        return out;
    }

    /** The same exchange on a direct connection and through Sluice must answer the same. */
    static List<String> sameAsPostgres(byte[]... setupThenCase) throws IOException {
        List<String> direct;
        List<String> pooled;
        try (RawClient d = login(pg.port()); RawClient s = login(sluice.port)) {
            direct = run(d, setupThenCase);
            pooled = run(s, setupThenCase);
            assertThat(s.queryOne("select 1")).as("the client is still served").isEqualTo("1");
        }
        assertThat(pooled).isEqualTo(direct);
        return pooled;
    }

    private static List<String> run(RawClient c, byte[]... batches) throws IOException {
        List<String> out = new ArrayList<>();
        for (byte[] b : batches) {
            out.addAll(exchange(c, b, 1));
        }
        return out;
    }

    @Test
    void bindToAnUnknownStatement() throws IOException {
        assertThat(sameAsPostgres(all(bind("nope"), execute(), sync()))).containsExactly("E 26000", "Z I");
    }

    @Test
    void describeOfAnUnknownStatement() throws IOException {
        assertThat(sameAsPostgres(all(describeOrClose('D', "nope"), sync()))).containsExactly("E 26000", "Z I");
    }

    @Test
    void closeOfANeverPreparedName() throws IOException {
        assertThat(sameAsPostgres(all(describeOrClose('C', "never"), sync()))).containsExactly("3", "Z I");
    }

    @Test
    void aDuplicateNameIsPostgresqlsError() throws IOException {
        assertThat(sameAsPostgres(all(parse("dup", "select 1"), sync()),
                all(parse("dup", "select 2"), bind("dup"), execute(), sync()),
                all(bind("dup"), execute(), sync())))
                .containsExactly("1", "Z I", "E 42P05", "Z I", "2", "D 1", "C", "Z I");
    }

    @Test
    void parseWithSeventyThousandParameterTypes() throws IOException {
        // the count field has 16 bits: 70,000 types cannot be declared, the message is malformed
        List<String> answer = sameAsPostgres(all(parse("big", "select $1", 70_000, 70_000), bind("big"),
                execute(), sync()), all(bind("big"), sync()));
        assertThat(answer).containsExactly("E 08P01", "Z I", "E 26000", "Z I");
    }

    @Test
    void tenThousandDistinctStatementsKeepEachServerWithinTheBound() throws IOException {
        try (RawClient c = login(sluice.port)) {
            for (int batch = 0; batch < 20; batch++) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                for (int i = batch * 500; i < (batch + 1) * 500; i++) {
                    out.writeBytes(parse("s" + i, "select " + i));
                }
                out.writeBytes(sync());
                List<String> got = exchange(c, out.toByteArray(), 1);
                assertThat(got).hasSize(501).endsWith("Z I").filteredOn(x -> !x.equals("1")).hasSize(1);
            }
            for (int i : new int[] {0, 1, 4999, 9999}) {
                assertThat(exchange(c, all(bind("s" + i), execute(), sync()), 1))
                        .as("every name still works").containsExactly("2", "D " + i, "C", "Z I");
            }
            int onServer = Integer.parseInt(c.queryOne("select count(*) from pg_prepared_statements"));
            assertThat(onServer).as("statements the backend holds").isBetween(1, 200);
            System.out.printf("10,000 statements from one client: the backend holds %d%n", onServer);
        }
    }
}
