package io.sluice.session;

import io.sluice.session.state.SqlCommand;

import java.util.HashMap;
import java.util.Map;

/**
 * What each portal's statement does, for the Execute that runs it. The unnamed portal, which
 * nearly every driver binds and executes once per query, has a field of its own, so the
 * per-transaction Bind, Execute and clear touch no map.
 */
final class Portals {
    private SqlCommand unnamed;
    private final Map<String, SqlCommand> named = new HashMap<>();

    void put(String portal, SqlCommand command) {
        if (portal.isEmpty()) {
            unnamed = command;
        } else {
            named.put(portal, command);
        }
    }

    /** The command bound to {@code portal}, or {@link SqlCommand#NONE} for a portal not seen. */
    SqlCommand get(String portal) {
        if (portal.isEmpty()) {
            return unnamed == null ? SqlCommand.NONE : unnamed;
        }
        return named.getOrDefault(portal, SqlCommand.NONE);
    }

    /** Portals end with their transaction (or when the server goes). */
    void clear() {
        unnamed = null;
        named.clear();
    }
}
