package io.sluice.session;

import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * All client sessions: counts for max_client_conn and the per-database / per-user client
 * limits, lookup by cancel key and by console id. Confined to the event loop.
 */
public final class ClientRegistry {
    private final Map<Long, ClientSession> byId = new LinkedHashMap<>();
    private final CancelKeys<ClientSession> cancelKeys = new CancelKeys<>();
    private final Map<String, Integer> perDatabase = new HashMap<>();
    private final Map<String, Integer> perUser = new HashMap<>();

    void add(ClientSession s) {
        byId.put(s.id(), s);
    }

    /**
     * Issues the client's BackendKeyData (random pid and secret, see {@link CancelKeys}) and
     * returns its pid; {@link #cancelSecret} gives the secret.
     */
    int allocateCancelPid(ClientSession s) {
        return cancelKeys.issue(s).pid();
    }

    int cancelSecret(int pid, ClientSession s) {
        return cancelKeys.secretOf(pid, s);
    }

    void loggedIn(ClientSession s, String database, String user) {
        perDatabase.merge(database, 1, Integer::sum);
        perUser.merge(user, 1, Integer::sum);
    }

    void remove(ClientSession s) {
        byId.remove(s.id());
        if (s.cancelPid() != 0) {
            cancelKeys.release(s.cancelPid(), s);
        }
        if (s.countedDatabase() != null) {
            perDatabase.merge(s.countedDatabase(), -1, Integer::sum);
            perUser.merge(s.countedUser(), -1, Integer::sum);
        }
    }

    public int total() {
        return byId.size();
    }

    public int clientsOfDatabase(String db) {
        return perDatabase.getOrDefault(db, 0);
    }

    public int clientsOfUser(String user) {
        return perUser.getOrDefault(user, 0);
    }

    /** The session whose key is exactly {@code (pid, secret)}, or null. */
    ClientSession byCancelKey(int pid, int secret) {
        return cancelKeys.match(pid, secret);
    }

    public ClientSession byId(long id) {
        return byId.get(id);
    }

    public Collection<ClientSession> all() {
        return Collections.unmodifiableCollection(byId.values());
    }
}
