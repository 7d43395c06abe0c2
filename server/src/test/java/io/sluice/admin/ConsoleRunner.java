package io.sluice.admin;

import java.util.List;
import java.util.concurrent.CompletionStage;

/** Test helper: runs queries on a console over a {@link FakeAdminContext} and unwraps results. */
final class ConsoleRunner {

    static final AdminUser ADMIN = new AdminUser("admin", AdminAccess.ADMIN);
    static final AdminUser STATS = new AdminUser("watcher", AdminAccess.STATS);

    final FakeAdminContext ctx = new FakeAdminContext();
    final AdminConsole console = new AdminConsole(ctx);

    /** Runs a query whose answer must already be complete. */
    List<AdminResult> run(String query, AdminUser who) {
        CompletionStage<List<AdminResult>> stage = console.execute(query, who);
        var future = stage.toCompletableFuture();
        if (!future.isDone()) {
            throw new AssertionError("answer to '" + query + "' is still pending");
        }
        return future.join();
    }

    List<AdminResult> admin(String query) {
        return run(query, ADMIN);
    }

    AdminResult.RowSet rows(String query) {
        List<AdminResult> out = admin(query);
        if (out.size() != 1 || !(out.get(0) instanceof AdminResult.RowSet rs)) {
            throw new AssertionError("expected one row set for '" + query + "', got " + out);
        }
        return rs;
    }

    static AdminResult.AdminError err(String message) {
        return new AdminResult.AdminError("08P01", message);
    }

    static AdminResult.CommandDone tag(String tag) {
        return new AdminResult.CommandDone(tag);
    }
}
