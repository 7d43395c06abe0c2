package io.sluice.session.state;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one server's session holds beyond its startup state, as far as Sluice knows it: the
 * protocol-level statements it has prepared under Sluice's names,
 * the parameters clients set on it with SET (lower-case name to value text) and the SQL-level
 * prepared statements (name to PREPARE text). Kept with the server, so whichever client gets it
 * next can be told exactly what to change.
 */
public final class ServerSession {
    private final ServerStatements statements;
    private final Map<String, String> settings = new LinkedHashMap<>();
    private final Map<String, String> sqlPrepared = new LinkedHashMap<>();

    /** @param maxPreparedStatements max_prepared_statements (0: clients' names pass through) */
    public ServerSession(int maxPreparedStatements) {
        this.statements = new ServerStatements(maxPreparedStatements);
    }

    public ServerStatements statements() {
        return statements;
    }

    /**
     * The server's session was reset (DISCARD ALL): nothing prepared or set survives. The
     * statement names keep counting, so none is reused.
     */
    public void reset() {
        statements.clearUpTo(statements.mark());
        settings.clear();
        sqlPrepared.clear();
    }

    public Map<String, String> settings() {
        return settings;
    }

    public Map<String, String> sqlPrepared() {
        return sqlPrepared;
    }

    /** Number of protocol-level statements prepared (SHOW SERVERS prepared_statements). */
    public int preparedCount() {
        return statements.size();
    }
}
