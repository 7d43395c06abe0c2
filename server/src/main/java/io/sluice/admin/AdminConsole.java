package io.sluice.admin;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Runs one console query: parse, check access, answer SHOW from {@link ShowTables}, hand control
 * commands to {@link AdminContext}. Behaves like PgBouncer 1.25.2's admin.c: same grammar, same
 * order of checks, same texts, same command tags.
 *
 * <p>Threading: see {@link AdminContext}; {@link #execute} itself holds no state between calls.
 * A context that throws makes the returned stage fail (the session should then disconnect, as
 * PgBouncer does on internal failures).
 */
public final class AdminConsole {

    /** DETAIL of the SHOW HELP notice, exactly as PgBouncer 1.25.2 sends it. */
    public static final String HELP_DETAIL = "\n"
            + "\tSHOW HELP|CONFIG|DATABASES|POOLS|CLIENTS|SERVERS|USERS|VERSION\n"
            + "\tSHOW PEERS|PEER_POOLS\n"
            + "\tSHOW FDS|SOCKETS|ACTIVE_SOCKETS|LISTS|MEM|STATE\n"
            + "\tSHOW DNS_HOSTS|DNS_ZONES\n"
            + "\tSHOW STATS|STATS_TOTALS|STATS_AVERAGES|TOTALS\n"
            + "\tSET key = arg\n"
            + "\tRELOAD\n"
            + "\tPAUSE [<db>]\n"
            + "\tRESUME [<db>]\n"
            + "\tDISABLE <db>\n"
            + "\tENABLE <db>\n"
            + "\tRECONNECT [<db>]\n"
            + "\tKILL [<db>]\n"
            + "\tKILL_CLIENT <client_id>\n"
            + "\tSUSPEND\n"
            + "\tSHUTDOWN\n"
            + "\tSHUTDOWN WAIT_FOR_SERVERS|WAIT_FOR_CLIENTS\n"
            + "\tWAIT_CLOSE [<db>]";

    /**
     * Parameters chatty drivers SHOW or SET; SHOW answers one text column named as the canonical
     * (lower-case) name, SET answers NOTICE "SET ignored". The 1.25.2 list: PgBouncer master
     * later added extra_float_digits, which 1.25.2 does not have.
     */
    public static final Map<String, String> FAKE_PARAMETERS = fakeParameters();

    private final AdminContext ctx;
    private final AdminCommandParser parser = new AdminCommandParser();
    private final ControlCommands control;

    public AdminConsole(AdminContext ctx) {
        this.ctx = Objects.requireNonNull(ctx, "ctx");
        this.control = new ControlCommands(ctx);
    }

    /**
     * Answers one simple-protocol query. The list is what to send before ReadyForQuery: a row
     * set, or a notice and a tag, or one error; a lone {@link AdminResult.Close} means send
     * nothing and let the connection close.
     */
    public CompletionStage<List<AdminResult>> execute(String query, AdminUser who) {
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(who, "who");
        try {
            return dispatch(query, who);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * The console client sent a CancelRequest (^C in psql while PAUSE/SUSPEND waits): like
     * PgBouncer, leave PAUSE/SUSPEND unless a shutdown is in progress. The session layer calls
     * this; completing or abandoning the pending stage is the context's business.
     */
    public void handleCancel() {
        if (ctx.shuttingDown()) {
            return;
        }
        if (ctx.pauseMode() != PauseMode.NONE) {
            ctx.control().resume(null);
        }
    }

    private CompletionStage<List<AdminResult>> dispatch(String query, AdminUser who) {
        ParsedCommand parsed = parser.parse(query);
        if (parsed instanceof ParsedCommand.Invalid invalid) {
            return now(fail(invalid.error()));
        }
        if (parsed instanceof ParsedCommand.SetCommand set) {
            return now(set(set.key(), set.value(), who));
        }
        ParsedCommand.Command cmd = (ParsedCommand.Command) parsed;
        String word = cmd.word().toLowerCase(Locale.ROOT);
        if (word.equals("show") || word.equals("select")) {
            return now(show(query, cmd.arg(), who));
        }
        if (ControlCommands.isCommand(word)) {
            return control.run(word, query, cmd.arg(), who).thenApply(List::of);
        }
        return now(fail(AdminErrors.invalidCommand(query)));
    }

    private List<AdminResult> show(String query, String what, AdminUser who) {
        String fake = FAKE_PARAMETERS.get(what.toLowerCase(Locale.ROOT));
        if (fake != null) {
            String column = what.toLowerCase(Locale.ROOT);
            List<List<Object>> rows = List.of(List.of(fake));
            return List.of(new AdminResult.RowSet(List.of(new AdminResult.Column(column, PgType.TEXT)), rows, "SHOW"));
        }
        if (what.equalsIgnoreCase("help")) {
            return List.of(new AdminResult.Notice("Console usage", HELP_DETAIL), new AdminResult.CommandDone("SHOW"));
        }
        ShowTable<?> table = ShowTables.find(what);
        if (table == null) {
            return fail(AdminErrors.invalidCommand(query));
        }
        if (table.isAdminOnly() && !who.isAdmin()) {
            return fail(AdminErrors.adminAccessNeeded());
        }
        return List.of(table.render(ctx));
    }

    private List<AdminResult> set(String key, String value, AdminUser who) {
        // the fake parameters are accepted from anyone, before the admin check
        if (FAKE_PARAMETERS.containsKey(key.toLowerCase(Locale.ROOT))) {
            return List.of(new AdminResult.Notice("SET ignored", null), new AdminResult.CommandDone("SET"));
        }
        if (!who.isAdmin()) {
            return fail(AdminErrors.adminAccessNeeded());
        }
        SetOutcome outcome = ctx.set(key, value);
        if (outcome == SetOutcome.FAILED) {
            return fail(AdminErrors.setFailed());
        }
        List<AdminResult> out = new ArrayList<>(2);
        if (outcome == SetOutcome.OK_TLS_NOT_APPLIED) {
            out.add(new AdminResult.Notice("TLS settings could not be applied, still using old configuration", null));
        }
        out.add(new AdminResult.CommandDone("SET " + key + "=" + value));
        return out;
    }

    private List<AdminResult> fail(AdminResult.AdminError error) {
        ctx.logError(error.message());
        return List.of(error);
    }

    private static CompletionStage<List<AdminResult>> now(List<AdminResult> results) {
        return CompletableFuture.completedFuture(results);
    }

    private static Map<String, String> fakeParameters() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("client_encoding", "UTF-8");
        m.put("default_transaction_isolation", "read committed");
        m.put("standard_conforming_strings", "on");
        m.put("datestyle", "ISO");
        m.put("timezone", "GMT");
        return Collections.unmodifiableMap(m);
    }
}
