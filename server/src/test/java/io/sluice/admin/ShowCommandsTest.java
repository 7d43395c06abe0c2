package io.sluice.admin;

import static io.sluice.admin.ConsoleRunner.ADMIN;
import static io.sluice.admin.ConsoleRunner.STATS;
import static io.sluice.admin.ConsoleRunner.err;
import static io.sluice.admin.ConsoleRunner.tag;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Row content of the SHOW commands and the display rules the console applies itself. */
class ShowCommandsTest {

    private final ConsoleRunner r = new ConsoleRunner();

    private static List<Object> row(Object... cells) {
        return Arrays.asList(cells);
    }

    @Test
    void versionStartsWithPgBouncerThenSluice() {
        assertThat(r.rows("SHOW VERSION").rows()).containsExactly(row("PgBouncer 1.25.2 (Sluice 0.1.0)"));
        assertThat(r.rows("select version").rows()).containsExactly(row("PgBouncer 1.25.2 (Sluice 0.1.0)"));
    }

    @Test
    void helpIsANoticeThenTagShow() {
        List<AdminResult> out = r.admin("show help");
        assertThat(out).containsExactly(new AdminResult.Notice("Console usage", AdminConsole.HELP_DETAIL), tag("SHOW"));
        assertThat(AdminConsole.HELP_DETAIL).startsWith("\n\tSHOW HELP|CONFIG|DATABASES|POOLS|CLIENTS|SERVERS|USERS|VERSION\n")
                .endsWith("\tSHOW DNS_HOSTS|DNS_ZONES\n\tSHOW STATS|STATS_TOTALS|STATS_AVERAGES|TOTALS\n"
                        + "\tSET key = arg\n\tRELOAD\n\tPAUSE [<db>]\n\tRESUME [<db>]\n\tDISABLE <db>\n\tENABLE <db>\n"
                        + "\tRECONNECT [<db>]\n\tKILL [<db>]\n\tKILL_CLIENT <client_id>\n\tSUSPEND\n\tSHUTDOWN\n"
                        + "\tSHUTDOWN WAIT_FOR_SERVERS|WAIT_FOR_CLIENTS\n\tWAIT_CLOSE [<db>]");
    }

    @Test
    void fakeParametersAnswerOneTextColumnNamedCanonically() {
        AdminResult.RowSet rs = r.rows("SHOW TimeZone");
        assertThat(rs.columns()).containsExactly(new AdminResult.Column("timezone", PgType.TEXT));
        assertThat(rs.rows()).containsExactly(row("GMT"));
        assertThat(r.rows("show client_encoding").rows()).containsExactly(row("UTF-8"));
        assertThat(r.rows("show default_transaction_isolation").rows()).containsExactly(row("read committed"));
        assertThat(r.rows("show standard_conforming_strings").rows()).containsExactly(row("on"));
        assertThat(r.rows("show datestyle").rows()).containsExactly(row("ISO"));
        // not a fake parameter in 1.25.2
        assertThat(r.admin("show extra_float_digits"))
                .containsExactly(err("invalid command 'show extra_float_digits', use SHOW HELP;"));
    }

    @Test
    void unknownShowArgumentIsAnInvalidCommand() {
        assertThat(r.admin("SHOW nothing;")).containsExactly(err("invalid command 'SHOW nothing;', use SHOW HELP;"));
        assertThat(r.admin("show")).containsExactly(err("invalid command 'show', use SHOW HELP;"));
        assertThat(r.ctx.errorLog).containsExactly("invalid command 'SHOW nothing;', use SHOW HELP;",
                "invalid command 'show', use SHOW HELP;");
    }

    @Test
    void stateFollowsPauseMode() {
        assertThat(r.rows("show state").rows()).containsExactly(row("active", "yes"), row("paused", "no"),
                row("suspended", "no"));
        r.ctx.pauseMode = PauseMode.SUSPEND;
        assertThat(r.rows("show state").rows()).containsExactly(row("active", "no"), row("paused", "no"),
                row("suspended", "yes"));
    }

    @Test
    void usersPrintOverridesWidth9AndEmptyWhenUnset() {
        assertThat(r.rows("show users").rows()).containsExactly(
                row("alice", "       30", "", "session", 0, 1, 0, 2),
                row("pgbouncer", "", "", null, 0, 0, 0, 1));
    }

    @Test
    void clientsApplyPgBouncersDisplayRules() {
        List<List<Object>> rows = r.rows("show clients").rows();
        // unlinked "active" shows as idle, linked stays active, waiting stays waiting
        assertThat(rows).extracting(x -> x.get(4)).containsExactly("idle", "active", "waiting");
        List<Object> first = rows.get(0);
        assertThat(first.subList(0, 4)).containsExactly("C", "alice", "app", "none");
        assertThat(first.get(9)).isEqualTo("2026-11-30 10:37:17 UTC");
        assertThat(first.get(10)).as("request_time 0 prints now").isEqualTo("2026-11-30 10:37:22 UTC");
        assertThat(first.subList(11, 21)).containsExactly(1, 250_000, 0, "0x55d0c1a2b3c0", "", 0, "", "psql", 0, 7);
        assertThat(rows.get(1).get(15)).isEqualTo("0x55d0c1a2b400");
    }

    @Test
    void socketsKeepPrefixedStatesAndAddDebugZeros() {
        List<Object> row = r.rows("show sockets").rows().get(0);
        assertThat(row.get(4)).isEqualTo("cl_active");
        assertThat(row.subList(21, 28)).containsOnly(0);
    }

    @Test
    void missingUserAndDatabaseShowPlaceholders() {
        SocketRow s = FakeAdminContext.socket("S", "idle", null);
        SocketRow anon = new SocketRow(s.type(), null, null, s.replication(), s.state(), s.addr(), s.port(),
                s.localAddr(), s.localPort(), s.connectTimeMillis(), s.requestTimeMillis(), s.waitMicros(),
                true, s.ptr(), s.link(), 4242, "TLSv1.3/x", null, 3, 9, s.buffers());
        List<Object> row = ShowTables.find("servers").render(new FakeAdminContext() {
            @Override
            public List<SocketRow> servers() {
                return List.of(anon);
            }
        }).rows().get(0);
        assertThat(row.subList(1, 3)).containsExactly("(nouser)", "(nodb)");
        assertThat(row.get(13)).isEqualTo(1);
        assertThat(row.subList(16, 21)).containsExactly(4242, "TLSv1.3/x", "", 3, 9);
    }

    @Test
    void poolsSplitMaxWaitIntoSecondsAndMicros() {
        List<Object> row = r.rows("show pools").rows().get(0);
        assertThat(row.subList(13, 17)).containsExactly(2, 500_000, "transaction", null);
    }

    @Test
    void databasesPrintFlagsAsIntegers() {
        List<Object> console = r.rows("show databases").rows().get(0);
        assertThat(console).containsExactly("pgbouncer", null, 6432, "pgbouncer", "pgbouncer", 2, 0, 0, 3600,
                "statement", null, 0, 1, 0, 2, 0, 0);
    }

    @Test
    void totalsHas22RowsInPgBouncersOrder() {
        List<List<Object>> rows = r.rows("show totals").rows();
        assertThat(rows).extracting(x -> x.get(0)).containsExactly(
                "total_server_assignment_count", "total_xact_count", "total_query_count", "total_client_bytes",
                "total_server_bytes", "total_xact_time", "total_query_time", "total_wait_time",
                "total_ps_client_parse_count", "total_ps_server_parse_count", "total_ps_bind_count",
                "avg_server_assignment_count", "avg_xact_count", "avg_query_count", "avg_client_bytes",
                "avg_server_bytes", "avg_xact_time", "avg_query_time", "avg_wait_time",
                "avg_ps_client_parse_count", "avg_ps_server_parse_count", "avg_ps_bind_count");
        assertThat(rows).extracting(x -> x.get(1)).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L,
                12L, 13L, 14L, 15L, 16L, 17L, 18L, 19L, 20L, 21L, 22L);
    }

    @Test
    void statsRowsCarryTotalsThenAverages() {
        List<Object> row = r.rows("show stats").rows().get(0);
        assertThat(row.get(0)).isEqualTo("app");
        assertThat(row.subList(1, 23)).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L,
                12L, 13L, 14L, 15L, 16L, 17L, 18L, 19L, 20L, 21L, 22L);
        assertThat(r.rows("show stats_averages").rows().get(0).get(11)).isEqualTo(22L);
        assertThat(r.rows("show stats_totals").rows().get(0).get(11)).isEqualTo(11L);
    }

    @Test
    void listsHas14RowsInOrder() {
        assertThat(r.rows("show lists").rows()).extracting(x -> x.get(0)).containsExactly("databases", "users",
                "peers", "pools", "peer_pools", "free_clients", "used_clients", "login_clients", "free_servers",
                "used_servers", "dns_names", "dns_zones", "dns_queries", "dns_pending");
    }

    @Test
    void memListsPgBouncersCachesWithZeros() {
        List<List<Object>> rows = r.rows("show mem").rows();
        assertThat(rows).hasSize(12);
        assertThat(rows.get(0)).containsExactly("user_cache", 0, 0, 0, 0);
    }

    @Test
    void fdsAndDnsZonesHaveNoRows() {
        assertThat(r.rows("show fds").rows()).isEmpty();
        assertThat(r.rows("show dns_zones").rows()).isEmpty();
    }

    @Test
    void configPrintsChangeableAsYesNo() {
        assertThat(r.rows("show config").rows()).containsExactly(row("listen_port", "6432", "6432", "no"),
                row("pool_mode", "session", "session", "yes"));
    }

    @Test
    void statsUsersReadEveryShowButFds() {
        for (String cmd : ShowTables.all().keySet()) {
            List<AdminResult> out = r.run("show " + cmd, STATS);
            if (cmd.equals("fds")) {
                assertThat(out).containsExactly(err("admin access needed"));
            } else {
                assertThat(out).as(cmd).singleElement().isInstanceOf(AdminResult.RowSet.class);
            }
        }
        assertThat(r.run("show help", STATS)).hasSize(2);
        assertThat(r.run("show fds", ADMIN)).singleElement().isInstanceOf(AdminResult.RowSet.class);
    }
}
