package io.sluice.session;

import io.sluice.pool.PoolKey;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * All client sessions, kept in places as PgBouncer keeps them: one list of clients in login, and
 * per pool one list per {@link ClientSession.State}. {@link ClientSession#moveTo} is the only
 * way between lists, so SHOW POOLS and SHOW CLIENTS read list sizes that cannot drift. Also the
 * counts for max_client_conn and the per-database / per-user client limits, and lookup by
 * cancel key and by id. Confined to the event loop.
 */
public final class ClientRegistry {
    private final Map<Long, ClientSession> byId = new LinkedHashMap<>();
    private final ClientList login = new ClientList();
    private final Map<PoolKey, EnumMap<ClientSession.State, ClientList>> pools = new LinkedHashMap<>();
    private final CancelKeys<ClientSession> cancelKeys = new CancelKeys<>();
    private final PinnedClients pins = new PinnedClients();
    /** Clients counted per database and per user; a count that falls to 0 leaves its map. */
    private final Map<String, Tally> perDatabase = new HashMap<>();
    private final Map<String, Tally> perUser = new HashMap<>();
    /**
     * Logins waiting for their pool's first server (PgBouncer's CL_WAITING_LOGIN), with the time
     * they began to wait: PgBouncer keeps them in the pool's waiting list, so SHOW POOLS counts
     * them in cl_waiting and SHOW CLIENTS lists them as waiting, not as logins.
     */
    private final Map<PoolKey, Map<ClientSession, Long>> welcomeWaiters = new HashMap<>();
    private final Map<ClientSession, PoolKey> welcomeWaiterPool = new HashMap<>();

    /** Clients that keep their server between transactions (transaction and statement pooling). */
    public PinnedClients pins() {
        return pins;
    }

    void add(ClientSession s) {
        byId.put(s.id(), s);
        login.add(s.place());
    }

    /** A login now waits for {@code pool}'s first server, since {@code sinceNanos}; ends when it leaves LOGIN. */
    void awaitsWelcome(ClientSession s, PoolKey pool, long sinceNanos) {
        if (login.contains(s.place()) && welcomeWaiterPool.putIfAbsent(s, pool) == null) {
            welcomeWaiters.computeIfAbsent(pool, k -> new LinkedHashMap<>()).put(s, sinceNanos);
        }
    }

    private void welcomeWaitEnded(ClientSession s) {
        PoolKey pool = welcomeWaiterPool.remove(s);
        if (pool != null) {
            Map<ClientSession, Long> waiters = welcomeWaiters.get(pool);
            waiters.remove(s);
            if (waiters.isEmpty()) {
                welcomeWaiters.remove(pool);
            }
        }
    }

    /** When {@code s} began to wait for its pool's first server; empty when it does not wait for it. */
    public OptionalLong welcomeWaitSince(ClientSession s) {
        PoolKey pool = welcomeWaiterPool.get(s);
        return pool == null ? OptionalLong.empty() : OptionalLong.of(welcomeWaiters.get(pool).get(s));
    }

    /** Called by {@link ClientSession#moveTo} only. */
    void moved(ClientSession s, ClientSession.State from, ClientSession.State to) {
        if (from == ClientSession.State.LOGIN) {
            welcomeWaitEnded(s);
        }
        ClientList.Node place = s.place();
        ClientList in = list(s, to);
        if (in != null) {
            in.add(place); // out of the list it was in
        } else if (place.list() != null) {
            place.list().remove(place);
        }
    }

    private ClientList list(ClientSession s, ClientSession.State state) {
        return switch (state) {
            case LOGIN -> login;
            case CLOSED -> null;
            default -> poolLists(s).computeIfAbsent(state, k -> new ClientList());
        };
    }

    /** The client's pool's lists, kept on its place: a client moves between them several times a transaction. */
    private EnumMap<ClientSession.State, ClientList> poolLists(ClientSession s) {
        ClientList.Node place = s.place();
        PoolKey key = s.poolKey();
        if (place.poolListsKey != key) {
            place.poolLists = pools.computeIfAbsent(key, k -> new EnumMap<>(ClientSession.State.class));
            place.poolListsKey = key;
        }
        return place.poolLists;
    }

    /**
     * Issues the client's BackendKeyData (random pid and secret, carrying {@code peerId} when
     * peering is on, see {@link CancelKeys}).
     */
    CancelKeys.Key issueCancelKey(ClientSession s, int peerId) {
        return cancelKeys.issue(s, peerId);
    }

    void loggedIn(ClientSession s, String database, String user) {
        ClientList.Node place = s.place();
        place.database = count(perDatabase, database);
        place.user = count(perUser, user);
    }

    /** One database's or user's count of clients; the client's place keeps the two it is in. */
    static final class Tally {
        private final String name;
        private int clients;

        private Tally(String name) {
            this.name = name;
        }
    }

    private static Tally count(Map<String, Tally> tallies, String name) {
        Tally t = tallies.computeIfAbsent(name, Tally::new);
        t.clients++;
        return t;
    }

    private static void uncount(Map<String, Tally> tallies, Tally t) {
        if (--t.clients == 0) {
            tallies.remove(t.name); // names clients chose (before their password) do not pile up
        }
    }

    void remove(ClientSession s) {
        byId.remove(s.id());
        login.remove(s.place());
        welcomeWaitEnded(s);
        if (s.cancelKey() != null) {
            cancelKeys.release(s.cancelKey(), s);
        }
        ClientList.Node place = s.place();
        if (place.database != null) {
            uncount(perDatabase, place.database);
            uncount(perUser, place.user);
            place.database = null;
            place.user = null;
        }
    }

    /** Clients of {@code pool} in {@code state}: a list size. */
    public int count(PoolKey pool, ClientSession.State state) {
        var perState = pools.get(pool);
        ClientList l = perState == null ? null : perState.get(state);
        return l == null ? 0 : l.size();
    }

    /** PgBouncer's cl_active: clients of the pool that are not waiting (idle or linked). */
    public int active(PoolKey pool) {
        return count(pool, ClientSession.State.IDLE) + count(pool, ClientSession.State.ACTIVE);
    }

    /** PgBouncer's cl_waiting: clients queued for a server, logins waiting for the pool's first one included. */
    public int waiting(PoolKey pool) {
        Map<ClientSession, Long> waiters = welcomeWaiters.get(pool);
        return count(pool, ClientSession.State.WAITING) + (waiters == null ? 0 : waiters.size());
    }

    /** The console's pool key (pgbouncer/pgbouncer). */
    public static PoolKey consolePool() {
        return ClientSession.CONSOLE_POOL;
    }

    /**
     * Clients in their pools, pool by pool in PgBouncer's pool order: active ones (idle, then
     * linked), then waiting ones, then logins waiting for the pool's first server.
     */
    public List<ClientSession> byPool() {
        List<ClientSession> all = new ArrayList<>();
        Set<PoolKey> keySet = new HashSet<>(pools.keySet());
        keySet.addAll(welcomeWaiters.keySet());
        List<PoolKey> keys = new ArrayList<>(keySet);
        keys.sort(PoolKey.SHOW_ORDER);
        for (PoolKey key : keys) {
            var perState = pools.getOrDefault(key, new EnumMap<>(ClientSession.State.class));
            for (ClientSession.State st : List.of(ClientSession.State.IDLE, ClientSession.State.ACTIVE,
                    ClientSession.State.WAITING)) {
                ClientList l = perState.get(st);
                if (l != null) {
                    l.forEach(all::add);
                }
            }
            all.addAll(welcomeWaiters.getOrDefault(key, Map.of()).keySet());
        }
        return all;
    }

    /** PgBouncer's login_clients: logins not yet in a pool's lists. */
    public int loggingIn() {
        return login.size() - welcomeWaiterPool.size();
    }

    public int total() {
        return byId.size();
    }

    public int clientsOfDatabase(String db) {
        Tally t = perDatabase.get(db);
        return t == null ? 0 : t.clients;
    }

    public int clientsOfUser(String user) {
        Tally t = perUser.get(user);
        return t == null ? 0 : t.clients;
    }

    /** Names the client counts hold, databases and users together: those of clients now connected. */
    int countedNames() {
        return perDatabase.size() + perUser.size();
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
