package io.sluice.admin;

import java.math.BigInteger;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The console's control commands, each in PgBouncer's order of checks (argument syntax, then
 * admin access, then state), with its exact error texts and log lines. Results are single
 * {@link AdminResult}s; waits (PAUSE, SUSPEND, WAIT_CLOSE, RELOAD) complete later.
 */
final class ControlCommands {
    /** What runs one control command: {@code query} is the raw text (for syntax errors), {@code arg} "" if none. */
    private interface Handler {
        CompletionStage<AdminResult> run(ControlCommands c, String query, String arg, AdminUser who);
    }

    /** The control words and their handlers, as PgBouncer's cmd_list pairs each word with its function. */
    private static final Map<String, Handler> COMMANDS = Map.ofEntries(
            Map.entry("pause", (c, query, arg, who) -> c.pause(arg, who)),
            Map.entry("resume", (c, query, arg, who) -> done(c.resume(arg, who))),
            Map.entry("suspend", (c, query, arg, who) -> c.suspend(query, arg, who)),
            Map.entry("disable", (c, query, arg, who) -> done(c.disable(arg, who))),
            Map.entry("enable", (c, query, arg, who) -> done(c.enable(arg, who))),
            Map.entry("reconnect", (c, query, arg, who) -> done(c.reconnect(arg, who))),
            Map.entry("kill", (c, query, arg, who) -> done(c.kill(arg, who))),
            Map.entry("kill_client", (c, query, arg, who) -> done(c.killClient(arg, who))),
            Map.entry("wait_close", (c, query, arg, who) -> c.waitClose(arg, who)),
            Map.entry("reload", (c, query, arg, who) -> c.reload(query, arg, who)),
            Map.entry("shutdown", (c, query, arg, who) -> done(c.shutdown(query, arg, who))));

    private final AdminContext ctx;

    ControlCommands(AdminContext ctx) {
        this.ctx = ctx;
    }

    /** Whether {@code word} (lower case) names a control command. */
    static boolean isCommand(String word) {
        return COMMANDS.containsKey(word);
    }

    /** A control command: {@code query} is the raw text (for syntax errors), {@code arg} "" if none. */
    CompletionStage<AdminResult> run(String word, String query, String arg, AdminUser who) {
        Handler handler = COMMANDS.get(word.toLowerCase(Locale.ROOT));
        return handler == null ? done(fail(AdminErrors.invalidCommand(query))) : handler.run(this, query, arg, who);
    }

    private CompletionStage<AdminResult> pause(String arg, AdminUser who) {
        if (!who.isAdmin()) {
            return done(fail(AdminErrors.adminAccessNeeded()));
        }
        if (ctx.pauseMode() != PauseMode.NONE) {
            return done(fail(AdminErrors.alreadySuspendedOrPaused()));
        }
        if (arg.isEmpty()) {
            ctx.logInfo("PAUSE command issued");
            return ctx.control().pause(null).thenApply(v -> tag("PAUSE"));
        }
        ctx.logInfo("PAUSE '" + arg + "' command issued");
        AdminResult refused = checkDatabase(arg, true, "pause");
        if (refused != null) {
            return done(refused);
        }
        return ctx.control().pause(arg).thenApply(v -> tag("PAUSE"));
    }

    private AdminResult resume(String arg, AdminUser who) {
        if (!who.isAdmin()) {
            return fail(AdminErrors.adminAccessNeeded());
        }
        if (arg.isEmpty()) {
            ctx.logInfo("RESUME command issued");
            if (ctx.shuttingDown()) {
                return fail(AdminErrors.poolerIsShuttingDown());
            }
            if (ctx.pauseMode() == PauseMode.NONE) {
                return fail(AdminErrors.poolerNotPausedOrSuspended());
            }
            ctx.control().resume(null);
            return tag("RESUME");
        }
        ctx.logInfo("RESUME '" + arg + "' command issued");
        Optional<DatabaseRow> db = ctx.findDatabase(arg, false);
        if (db.isEmpty()) {
            return fail(AdminErrors.noSuchDatabase(arg));
        }
        if (!db.get().paused()) {
            return fail(AdminErrors.databaseNotPaused(arg));
        }
        ctx.control().resume(arg);
        return tag("RESUME");
    }

    private CompletionStage<AdminResult> suspend(String query, String arg, AdminUser who) {
        if (!arg.isEmpty()) {
            return done(fail(AdminErrors.invalidCommand(query)));
        }
        if (!who.isAdmin()) {
            return done(fail(AdminErrors.adminAccessNeeded()));
        }
        if (ctx.pauseMode() != PauseMode.NONE) {
            return done(fail(AdminErrors.alreadySuspendedOrPaused()));
        }
        // SUSPEND must be able to flush every buffer, which paused databases would prevent
        if (ctx.databases().stream().anyMatch(DatabaseRow::paused)) {
            return done(fail(AdminErrors.cannotSuspendWithPausedDatabases()));
        }
        ctx.logInfo("SUSPEND command issued");
        return ctx.suspend().thenApply(v -> tag("SUSPEND"));
    }

    private AdminResult disable(String arg, AdminUser who) {
        if (!who.isAdmin()) {
            return fail(AdminErrors.adminAccessNeeded());
        }
        if (arg.isEmpty()) {
            return fail(AdminErrors.databaseRequired());
        }
        ctx.logInfo("DISABLE '" + arg + "' command issued");
        AdminResult refused = checkDatabase(arg, true, "disable");
        if (refused != null) {
            return refused;
        }
        ctx.control().disable(arg);
        return tag("DISABLE");
    }

    private AdminResult enable(String arg, AdminUser who) {
        if (!who.isAdmin()) {
            return fail(AdminErrors.adminAccessNeeded());
        }
        if (arg.isEmpty()) {
            return fail(AdminErrors.databaseRequired());
        }
        ctx.logInfo("ENABLE '" + arg + "' command issued");
        AdminResult refused = checkDatabase(arg, false, "enable");
        if (refused != null) {
            return refused;
        }
        ctx.control().enable(arg);
        return tag("ENABLE");
    }

    private AdminResult reconnect(String arg, AdminUser who) {
        if (!who.isAdmin()) {
            return fail(AdminErrors.adminAccessNeeded());
        }
        if (arg.isEmpty()) {
            ctx.logInfo("RECONNECT command issued");
            ctx.control().reconnect(null);
            return tag("RECONNECT");
        }
        ctx.logInfo("RECONNECT '" + arg + "' command issued");
        AdminResult refused = checkDatabase(arg, true, "reconnect");
        if (refused != null) {
            return refused;
        }
        ctx.control().reconnect(arg);
        return tag("RECONNECT");
    }

    private AdminResult kill(String arg, AdminUser who) {
        if (!who.isAdmin()) {
            return fail(AdminErrors.adminAccessNeeded());
        }
        if (ctx.pauseMode() != PauseMode.NONE) {
            return fail(AdminErrors.alreadySuspendedOrPaused());
        }
        if (arg.isEmpty()) {
            ctx.logInfo("KILL command issued");
            ctx.control().kill(null);
            return tag("KILL");
        }
        ctx.logInfo("KILL '" + arg + "' command issued");
        AdminResult refused = checkDatabase(arg, true, "kill");
        if (refused != null) {
            return refused;
        }
        ctx.control().kill(arg);
        return tag("KILL");
    }

    private AdminResult killClient(String arg, AdminUser who) {
        if (!who.isAdmin()) {
            return fail(AdminErrors.adminAccessNeeded());
        }
        Long id = parseUnsignedLongLikeScanf(arg);
        if (id == null) {
            return fail(AdminErrors.invalidClientPointer());
        }
        if (!ctx.killClient(id)) {
            return fail(AdminErrors.clientNotFound());
        }
        return tag("KILL_CLIENT");
    }

    private CompletionStage<AdminResult> waitClose(String arg, AdminUser who) {
        if (!who.isAdmin()) {
            return done(fail(AdminErrors.adminAccessNeeded()));
        }
        if (arg.isEmpty()) {
            ctx.logInfo("WAIT_CLOSE command issued");
            return ctx.control().waitClose(null).thenApply(v -> tag("WAIT_CLOSE"));
        }
        ctx.logInfo("WAIT_CLOSE '" + arg + "' command issued");
        Optional<DatabaseRow> db = ctx.findDatabase(arg, true);
        if (db.isEmpty()) {
            return done(fail(AdminErrors.noSuchDatabase(arg)));
        }
        if (AdminContext.ADMIN_DATABASE.equals(db.get().name())) {
            return done(fail(AdminErrors.cannotWaitInAdminDb(arg)));
        }
        return ctx.control().waitClose(arg).thenApply(v -> tag("WAIT_CLOSE"));
    }

    private CompletionStage<AdminResult> reload(String query, String arg, AdminUser who) {
        if (!arg.isEmpty()) {
            return done(fail(AdminErrors.invalidCommand(query)));
        }
        if (!who.isAdmin()) {
            return done(fail(AdminErrors.adminAccessNeeded()));
        }
        ctx.logInfo("RELOAD command issued");
        // the context logs why it failed; PgBouncer sends this error without logging it again
        return ctx.reload().thenApply(ok -> ok ? tag("RELOAD") : AdminErrors.reloadFailed());
    }

    private AdminResult shutdown(String query, String arg, AdminUser who) {
        ShutdownMode mode;
        if (arg.isEmpty()) {
            mode = ShutdownMode.IMMEDIATE;
        } else if (arg.equalsIgnoreCase("WAIT_FOR_CLIENTS")) {
            mode = ShutdownMode.WAIT_FOR_CLIENTS;
        } else if (arg.equalsIgnoreCase("WAIT_FOR_SERVERS")) {
            mode = ShutdownMode.WAIT_FOR_SERVERS;
        } else {
            return fail(AdminErrors.invalidCommand(query));
        }
        if (!who.isAdmin()) {
            return fail(AdminErrors.adminAccessNeeded());
        }
        switch (mode) {
            case IMMEDIATE -> ctx.logInfo("SHUTDOWN command issued");
            case WAIT_FOR_SERVERS -> ctx.logInfo("SHUTDOWN WAIT_FOR_SERVERS command issued");
            case WAIT_FOR_CLIENTS -> ctx.logInfo("SHUTDOWN WAIT_FOR_CLIENTS command issued");
        }
        ctx.shutdown(mode);
        // an immediate shutdown never answers: the connection stays open until the process exits
        return mode == ShutdownMode.IMMEDIATE ? new AdminResult.Close() : tag("SHUTDOWN");
    }

    /**
     * The database checks PAUSE/DISABLE/ENABLE/RECONNECT/KILL share: it must exist (auto-database
     * registration allowed where PgBouncer allows it) and must not be the console's own.
     */
    private AdminResult checkDatabase(String name, boolean registerAuto, String verb) {
        Optional<DatabaseRow> db = ctx.findDatabase(name, registerAuto);
        if (db.isEmpty()) {
            return fail(AdminErrors.noSuchDatabase(name));
        }
        if (AdminContext.ADMIN_DATABASE.equals(db.get().name())) {
            return fail(AdminErrors.cannotOnAdminDb(verb, name));
        }
        return null;
    }

    /**
     * C {@code sscanf(arg, "%llu")}: optional leading white space and sign, then at least one
     * digit; the rest is ignored, a negative value wraps, overflow saturates to ULLONG_MAX.
     * Returns the unsigned 64-bit value in a long, or null if no number was found.
     */
    static Long parseUnsignedLongLikeScanf(String arg) {
        int i = 0;
        while (i < arg.length() && Character.isWhitespace(arg.charAt(i))) {
            i++;
        }
        boolean negative = false;
        if (i < arg.length() && (arg.charAt(i) == '+' || arg.charAt(i) == '-')) {
            negative = arg.charAt(i) == '-';
            i++;
        }
        int start = i;
        while (i < arg.length() && arg.charAt(i) >= '0' && arg.charAt(i) <= '9') {
            i++;
        }
        if (i == start) {
            return null;
        }
        BigInteger max = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
        BigInteger v = new BigInteger(arg.substring(start, i));
        if (v.compareTo(max) > 0) {
            return -1L; // strtoull saturates at ULLONG_MAX (and ignores the sign then)
        }
        return negative ? -v.longValue() : v.longValue();
    }

    private AdminResult fail(AdminResult.AdminError error) {
        ctx.logError(error.message());
        return error;
    }

    private static AdminResult tag(String tag) {
        return new AdminResult.CommandDone(tag);
    }

    private static CompletionStage<AdminResult> done(AdminResult result) {
        return CompletableFuture.completedFuture(result);
    }
}
