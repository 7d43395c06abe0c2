package io.sluice.runtime;

import io.sluice.admin.AdminAccess;
import io.sluice.admin.AdminConsole;
import io.sluice.admin.AdminResult;
import io.sluice.admin.AdminUser;
import io.sluice.admin.AdminValues;
import io.sluice.session.Console;
import io.sluice.session.ConsoleReply;

import java.util.ArrayList;
import java.util.List;

/** Connects the admin console logic to sessions: runs commands, encodes results as reply calls. */
public final class Consoles {
    private Consoles() {
    }

    public static void attach(SluiceServer server) {
        AdminConsole admin = new AdminConsole(new ServerAdminContext(server));
        Console console = (query, user, isAdmin, reply) -> admin
                .execute(query, new AdminUser(user, isAdmin ? AdminAccess.ADMIN : AdminAccess.STATS))
                .whenComplete((results, error) -> server.loop().execute(() -> deliver(results, error, reply)));
        server.console(console);
    }

    private static void deliver(List<AdminResult> results, Throwable error, ConsoleReply reply) {
        if (error != null) {
            Throwable cause = error.getCause() != null && error instanceof java.util.concurrent.CompletionException
                    ? error.getCause() : error;
            reply.error("08P01", cause.getMessage() == null ? cause.toString() : cause.getMessage());
            reply.done();
            return;
        }
        for (AdminResult r : results) {
            if (r instanceof AdminResult.RowSet rs) {
                List<String> names = new ArrayList<>();
                List<Integer> oids = new ArrayList<>();
                rs.columns().forEach(c -> {
                    names.add(c.name());
                    oids.add(c.typeOid());
                });
                reply.rowDescription(names, oids);
                for (List<Object> row : rs.rows()) {
                    List<String> text = new ArrayList<>(row.size());
                    row.forEach(v -> text.add(AdminValues.toText(v)));
                    reply.dataRow(text);
                }
                reply.commandComplete(rs.commandTag());
            } else if (r instanceof AdminResult.CommandDone d) {
                reply.commandComplete(d.tag());
            } else if (r instanceof AdminResult.Notice n) {
                reply.notice(n.message(), n.detail());
            } else if (r instanceof AdminResult.AdminError e) {
                reply.error(e.sqlState(), e.message());
            } else if (r instanceof AdminResult.Close) {
                reply.close();
                return;
            }
        }
        reply.done();
    }
}
