package io.sluice.session.state;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What to run on a server before a client's own messages so the server's session matches the
 * client's: RESET of what another client set, SET of the client's own values, DEALLOCATE of
 * SQL-level statements the client does not have, PREPARE of those it has. RESETs and SETs are
 * two separate queries, so a SET that fails cannot undo the RESETs and leave another client's
 * value behind; each PREPARE and DEALLOCATE is a query of its own for the same reason.
 */
public record SyncPlan(String resets, List<String> resetNames, String sets, Map<String, String> setValues,
                       List<String> deallocates, List<String> prepares) {

    /** The plan between two sessions that hold no state: the usual case, built once. */
    private static final SyncPlan NOTHING = new SyncPlan(null, List.of(), null, Map.of(), List.of(), List.of());

    /** Nothing to do. */
    public boolean empty() {
        return resets == null && sets == null && deallocates.isEmpty() && prepares.isEmpty();
    }

    /** The plan to bring {@code server} to {@code client}'s state. */
    public static SyncPlan between(SessionJournal client, ServerSession server) {
        if (client.settings().isEmpty() && server.settings().isEmpty()
                && client.sqlPrepared().isEmpty() && server.sqlPrepared().isEmpty()) {
            return NOTHING; // runs on every server switch; spare it six allocations
        }
        List<String> resetNames = new ArrayList<>();
        for (Map.Entry<String, String> e : server.settings().entrySet()) {
            if (!Objects.equals(client.settings().get(e.getKey()), e.getValue())) {
                resetNames.add(e.getKey());
            }
        }
        StringBuilder resets = new StringBuilder();
        for (String n : resetNames) {
            resets.append("RESET ").append(quoteName(n)).append(';');
        }
        Map<String, String> setValues = new java.util.LinkedHashMap<>();
        StringBuilder sets = new StringBuilder();
        for (Map.Entry<String, String> e : client.settings().entrySet()) {
            if (!Objects.equals(server.settings().get(e.getKey()), e.getValue())) {
                setValues.put(e.getKey(), e.getValue());
                sets.append("SET ").append(quoteName(e.getKey())).append(" TO ").append(e.getValue()).append(';');
            }
        }
        List<String> deallocates = new ArrayList<>();
        for (Map.Entry<String, String> e : server.sqlPrepared().entrySet()) {
            if (!Objects.equals(client.sqlPrepared().get(e.getKey()), e.getValue())) {
                deallocates.add(e.getKey());
            }
        }
        List<String> prepares = new ArrayList<>();
        for (Map.Entry<String, String> e : client.sqlPrepared().entrySet()) {
            if (!Objects.equals(server.sqlPrepared().get(e.getKey()), e.getValue())) {
                prepares.add(e.getKey());
            }
        }
        return new SyncPlan(resets.length() == 0 ? null : resets.toString(), resetNames,
                sets.length() == 0 ? null : sets.toString(), setValues, deallocates, prepares);
    }

    /**
     * A parameter or statement name as an identifier. Dotted custom parameters (app.user) are
     * quoted part by part; names were folded when they were read, so quoting keeps them as is.
     */
    public static String quoteName(String name) {
        StringBuilder out = new StringBuilder();
        for (String part : name.split("\\.", -1)) {
            if (out.length() > 0) {
                out.append('.');
            }
            out.append(quoteIdent(part));
        }
        return out.toString();
    }

    /** One identifier, quoted as PostgreSQL reads it back unchanged. */
    public static String quoteIdent(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }
}
