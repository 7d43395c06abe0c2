package io.sluice.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Pins every SHOW command's column names, order and type OIDs to PgBouncer 1.25.2
 * ({@code show-columns-1.25.2.tsv}, copied from shared/reference), and Sluice's own two
 * commands to spec/pressure.md.
 */
class ShowColumnsGoldenTest {

    private static final Map<String, String> SLUICE_OWN = Map.of(
            "POOL_SCALING", "user:25,database:25,inflight:20,creates:20,gate_waits:20,gate_budget_ex:20,"
                    + "antic_notify:20,antic_timeout:20,create_fallback:20,replenish_def:20",
            "POOL_COORDINATOR", "database:25,max_db_conn:20,current:20,reserve_size:20,reserve_used:20,"
                    + "evictions:20,reserve_acq:20,exhaustions:20",
            "PINNED_CLIENTS", "database:25,user:25,client_id:20,addr:25,port:23,server_id:20,remote_pid:23,"
                    + "reason:25",
            "HOSTS", "database:25,host:25,role:25,state:25,lag_seconds:1700,lag_bytes:20,lag_source:25,"
                    + "last_check:25,servers_open:23");

    private final ConsoleRunner runner = new ConsoleRunner();

    @Test
    void everyShowCommandMatchesTheReferenceColumns() throws IOException {
        Map<String, String> golden = readGolden();
        assertThat(golden).hasSize(21); // every SHOW but HELP, which answers with a notice
        for (Map.Entry<String, String> e : golden.entrySet()) {
            AdminResult.RowSet rs = runner.rows("SHOW " + e.getKey());
            assertThat(describe(rs.columns())).as("SHOW %s", e.getKey()).isEqualTo(e.getValue());
            assertThat(rs.commandTag()).isEqualTo("SHOW");
        }
    }

    @Test
    void sluiceOwnCommandsMatchThePressureSpec() {
        SLUICE_OWN.forEach((cmd, cols) ->
                assertThat(describe(runner.rows("SHOW " + cmd).columns())).as(cmd).isEqualTo(cols));
    }

    @Test
    void noTableExistsThatIsNotPinned() throws IOException {
        List<String> pinned = new ArrayList<>(readGolden().keySet());
        pinned.addAll(SLUICE_OWN.keySet());
        List<String> tables = ShowTables.all().keySet().stream().map(s -> s.toUpperCase(Locale.ROOT)).toList();
        assertThat(tables).containsExactlyInAnyOrderElementsOf(pinned);
    }

    @Test
    void everyCellHasTheJavaTypeItsColumnTypePromises() throws IOException {
        List<String> cmds = new ArrayList<>(readGolden().keySet());
        cmds.addAll(SLUICE_OWN.keySet());
        for (String cmd : cmds) {
            AdminResult.RowSet rs = runner.rows("SHOW " + cmd);
            for (List<Object> row : rs.rows()) {
                assertThat(row).as(cmd).hasSize(rs.columns().size());
                for (int i = 0; i < row.size(); i++) {
                    Object v = row.get(i);
                    if (v == null) {
                        continue;
                    }
                    Class<?> expected = switch (rs.columns().get(i).typeOid()) {
                        case PgType.TEXT -> String.class;
                        case PgType.INT4 -> Integer.class;
                        case PgType.INT8, PgType.NUMERIC -> Long.class;
                        case PgType.BYTEA -> byte[].class;
                        default -> throw new AssertionError("unexpected oid");
                    };
                    if (rs.columns().get(i).typeOid() == PgType.NUMERIC && v instanceof BigDecimal) {
                        continue;
                    }
                    assertThat(v).as("%s.%s", cmd, rs.columns().get(i).name()).isInstanceOf(expected);
                }
            }
        }
    }

    static Map<String, String> readGolden() throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        try (InputStream in = ShowColumnsGoldenTest.class.getResourceAsStream("/show-columns-1.25.2.tsv");
             BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] parts = line.split("\t");
                out.put(parts[0], parts[1]);
            }
        }
        return out;
    }

    private static String describe(List<AdminResult.Column> columns) {
        StringBuilder sb = new StringBuilder();
        for (AdminResult.Column c : columns) {
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(c.name()).append(':').append(c.typeOid());
        }
        return sb.toString();
    }
}
