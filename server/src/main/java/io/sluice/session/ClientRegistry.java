package io.sluice.session;

import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * All client sessions: counts for max_client_conn and the per-database / per-user client
 * limits, lookup by cancel key and by console id. Confined to the event loop.
 */
public final class ClientRegistry {
    private final Map<Long, ClientSession> byId = new LinkedHashMap<>();
    private final Map<Integer, ClientSession> byCancelPid = new HashMap<>();
    private final Map<String, Integer> perDatabase = new HashMap<>();
    private final Map<String, Integer> perUser = new HashMap<>();
    private int nextPid = ThreadLocalRandom.current().nextInt(1, 1 << 20);

    void add(ClientSession s) {
        byId.put(s.id(), s);
    }

    /** Allocates the BackendKeyData pid a client sees (unique among live sessions). */
    int allocateCancelPid(ClientSession s) {
        int pid;
        do {
            pid = nextPid++ & 0x7fffffff;
        } while (pid == 0 || byCancelPid.containsKey(pid));
        byCancelPid.put(pid, s);
        return pid;
    }

    void loggedIn(ClientSession s, String database, String user) {
        perDatabase.merge(database, 1, Integer::sum);
        perUser.merge(user, 1, Integer::sum);
    }

    void remove(ClientSession s) {
        byId.remove(s.id());
        if (s.cancelPid() != 0) {
            byCancelPid.remove(s.cancelPid(), s);
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

    ClientSession byCancelPid(int pid) {
        return byCancelPid.get(pid);
    }

    public ClientSession byId(long id) {
        return byId.get(id);
    }

    public Collection<ClientSession> all() {
        return Collections.unmodifiableCollection(byId.values());
    }
}
