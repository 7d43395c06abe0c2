package io.sluice.session;

import io.sluice.backend.ServerParams;
import io.sluice.proto.BackendMessage;
import io.sluice.proto.Frame;
import io.sluice.proto.codec.BackendDecoding;
import io.sluice.proto.codec.ParameterStatuses;
import io.sluice.util.Interner;
import io.sluice.util.SharedStrings;

import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The session parameters a client believes its server has (PgBouncer's variable cache):
 * taken from the startup packet and from ParameterStatus the client saw, and replayed with SET
 * whenever the client lands on a server whose values differ.
 */
final class ClientParams {
    /**
     * Canonical spelling (as ParameterStatus reports it) by lower-case name, and by itself for
     * the spellings with capitals: every login fills its values from the greeting, whose names
     * are spelled so, and would otherwise lower-case them for each look-up.
     */
    private static final Map<String, String> CANONICAL = Map.of(
            "client_encoding", "client_encoding",
            "datestyle", "DateStyle", "DateStyle", "DateStyle",
            "timezone", "TimeZone", "TimeZone", "TimeZone",
            "standard_conforming_strings", "standard_conforming_strings",
            "application_name", "application_name",
            "intervalstyle", "IntervalStyle", "IntervalStyle", "IntervalStyle");
    /** The lower-case names of the canonical spellings with capitals. */
    private static final Map<String, String> LOWER = Map.of(
            "DateStyle", "datestyle", "TimeZone", "timezone", "IntervalStyle", "intervalstyle");

    /**
     * Clients' value sets, one instance for equal ones: the clients of a pool mostly have the
     * same values, so a server found to need no SET for one client's set needs none for the next.
     */
    private static final Interner<Map<String, String>> VALUE_SETS = new Interner<>(1024);

    private final Set<String> tracked;
    private final Map<String, String> values = new LinkedHashMap<>();
    private final Map<String, String> ownView = Collections.unmodifiableMap(values);
    /** Names whose value came from the startup packet and no server has taken yet. */
    private final Set<String> untried = new HashSet<>();
    /** values' application_name, kept apart: every server link reads it. */
    private String applicationName = "";
    /** values as their shared, unchanging instance; null after a change until next needed. */
    private Map<String, String> valueSet;

    ClientParams(Set<String> trackedLowerCase) {
        this.tracked = trackedLowerCase;
    }

    static String canonical(String name) {
        String c = CANONICAL.get(name); // most names come in lower case: no lower-cased copy for them
        return c != null ? c : CANONICAL.getOrDefault(name.toLowerCase(Locale.ROOT), name);
    }

    boolean isTracked(String name) {
        if (tracked.contains(name)) {
            return true;
        }
        String lower = LOWER.get(name);
        if (lower == null) {
            lower = name.toLowerCase(Locale.ROOT); // the same object when already in lower case
        }
        return lower != name && tracked.contains(lower);
    }

    /** A value from the startup packet: PostgreSQL has not seen it yet and may refuse it. */
    void set(String name, String value) {
        String key = canonical(name);
        put(key, SharedStrings.of(value));
        untried.add(key);
    }

    String applicationName() {
        return applicationName;
    }

    private void put(String key, String value) {
        values.put(key, value);
        valueSet = null;
        if (key.equals("application_name")) {
            applicationName = value;
        }
    }

    /** A ParameterStatus passed to the client while linked: the client now has this value. */
    void serverReported(Frame frame) {
        if (BackendDecoding.decode(frame) instanceof BackendMessage.ParameterStatus p && isTracked(p.name())) {
            String key = canonical(p.name());
            put(key, SharedStrings.of(p.value()));
            untried.remove(key);
        }
    }

    /**
     * Whether {@link #syncQuery} for this server sets a value no server has taken yet (a TimeZone
     * typed wrong in the startup packet): then its answer must come before the client's messages,
     * which must not run with another client's value if PostgreSQL refuses it.
     */
    boolean syncTriesNew(Map<String, String> server) {
        for (String name : untried) {
            if (needsSet(server.get(name), values.get(name))) {
                return true;
            }
        }
        return false;
    }

    /** A server took every value of a {@link #syncQuery}: PostgreSQL accepts them all. */
    void allTaken() {
        untried.clear();
    }

    /**
     * {@link #syncQuery(Map)} for a linked server, or null at once when the server was found to
     * need no SET for these same values and has reported no parameter since: the rule on every
     * server switch of a pool whose clients share their values.
     */
    String syncQuery(ServerParams server) {
        Map<String, String> mine = valueSet();
        if (server.matches(mine)) {
            return null;
        }
        String sql = syncQuery(server.values());
        if (sql == null) {
            server.matched(mine);
        }
        return sql;
    }

    /** The values as their shared instance: equal for two clients means the same object, as a rule. */
    Map<String, String> valueSet() {
        if (valueSet == null) {
            valueSet = VALUE_SETS.share(Map.copyOf(values));
        }
        return valueSet;
    }

    /**
     * SET statements that make the server match this client, or null when it already does. Runs
     * on the server switches the shortcut above does not settle; values on both sides are
     * {@link SharedStrings} (here when set, by the server connection when reported; the welcome
     * values are a server's), so equal ones compare by reference.
     */
    String syncQuery(Map<String, String> server) {
        StringBuilder sql = null;
        for (Map.Entry<String, String> e : values.entrySet()) {
            String want = e.getValue();
            if (!needsSet(server.get(e.getKey()), want)) {
                continue;
            }
            if (sql == null) {
                sql = new StringBuilder();
            }
            sql.append("SET ").append(e.getKey()).append(" = '")
                    .append(want.replace("'", "''")).append("';");
        }
        return sql == null ? null : sql.toString();
    }

    /**
     * As PgBouncer: a value the server never reported cannot be compared, and case differences
     * are no difference; an empty value is set like any other. Equal (shared) values, the rule
     * on every server switch, end at equalsIgnoreCase's first check, a reference compare.
     */
    private static boolean needsSet(String have, String want) {
        return have != null && !have.equalsIgnoreCase(want);
    }

    /**
     * At login, tracked parameters the client did not set take the pool's values it is greeted
     * with (PgBouncer's varcache_fill_unset), so that moving to a server another client changed
     * (standard_conforming_strings off, an application_name) puts them back. Which of the
     * greeting's values are tracked, under which names, is worked out once per greeting and
     * kept on it: three look-ups a value at every login were the largest piece of a SCRAM
     * login's own code in its profile.
     */
    void fillUnset(ParameterStatuses welcome) {
        if (welcome == null) {
            return;
        }
        TrackedWelcome t = welcome.derived() instanceof TrackedWelcome known && known.tracked() == tracked
                ? known : null;
        if (t == null) {
            t = trackedIn(welcome.params());
            welcome.derived(t);
        }
        for (int i = 0; i < t.keys().length; i++) {
            if (!values.containsKey(t.keys()[i])) {
                put(t.keys()[i], t.values()[i]);
            }
        }
    }

    /** A greeting's tracked values by canonical name, for one tracked set (one configuration). */
    private record TrackedWelcome(Set<String> tracked, String[] keys, String[] values) {
    }

    private TrackedWelcome trackedIn(Map<String, String> welcome) {
        Map<String, String> found = new LinkedHashMap<>();
        welcome.forEach((name, value) -> {
            if (isTracked(name)) {
                found.putIfAbsent(canonical(name), value);
            }
        });
        return new TrackedWelcome(tracked, found.keySet().toArray(new String[0]),
                found.values().toArray(new String[0]));
    }

    /**
     * The client's own values by canonical name, read-only: the startup packet of a dedicated
     * server, and the login greeting (the server's values with these on top). For the greeting,
     * call {@link #fillUnset} with the server's values first, so that the tracked values the
     * client is greeted with become its own too: a client that never asked for a TimeZone still
     * has one, and must get it back on a server where another client SET a different one.
     */
    Map<String, String> own() {
        return ownView;
    }
}
