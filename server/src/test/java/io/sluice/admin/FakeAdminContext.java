package io.sluice.admin;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A plain in-memory {@link AdminContext}: state is public fields tests set, control calls are
 * recorded in {@link #calls}, and the waits (PAUSE, SUSPEND, WAIT_CLOSE, RELOAD) are futures the
 * test completes when it wants.
 */
class FakeAdminContext implements AdminContext, DatabaseControl {

    static final long NOW_MILLIS = 1_796_035_042_000L; // 2026-11-30 10:37:22 UTC

    final List<String> calls = new ArrayList<>();
    final List<String> infoLog = new ArrayList<>();
    final List<String> errorLog = new ArrayList<>();

    List<DatabaseRow> databases = new ArrayList<>(List.of(
            database("pgbouncer", null, 6432, "pgbouncer", "pgbouncer", 2, "statement", false),
            database("app", "127.0.0.1", 5432, "appdb", null, 20, null, false)));
    List<String> autoDatabases = new ArrayList<>();
    PauseMode pauseMode = PauseMode.NONE;
    boolean shuttingDown;
    List<Long> clientIds = new ArrayList<>(List.of(7L));
    SetOutcome setOutcome = SetOutcome.OK;

    CompletableFuture<Void> pauseDone = CompletableFuture.completedFuture(null);
    CompletableFuture<Void> suspendDone = CompletableFuture.completedFuture(null);
    CompletableFuture<Void> waitCloseDone = CompletableFuture.completedFuture(null);
    CompletableFuture<Boolean> reloadDone = CompletableFuture.completedFuture(true);

    static DatabaseRow database(String name, String host, int port, String dbname, String forceUser, int poolSize,
                                String poolMode, boolean paused) {
        return new DatabaseRow(name, host, port, dbname, forceUser, poolSize, 0, 0, 3600, poolMode, null,
                0, 1, 0, 2, paused, false);
    }

    static SocketRow socket(String type, String state, Long link) {
        return new SocketRow(type, "alice", "app", "none", state, "127.0.0.1", 50000, "127.0.0.1", 6432,
                NOW_MILLIS - 5000, 0, 1_250_000, false, 0x55d0c1a2b3c0L, link, 0, "", "psql", 0, 7,
                SocketBuffers.NONE);
    }

    @Override
    public String sluiceVersion() {
        return "0.1.0";
    }

    @Override
    public long currentTimeMillis() {
        return NOW_MILLIS;
    }

    @Override
    public List<ConfigRow> config() {
        return List.of(new ConfigRow("listen_port", "6432", "6432", false),
                new ConfigRow("pool_mode", "session", "session", true));
    }

    @Override
    public List<DatabaseRow> databases() {
        return databases;
    }

    @Override
    public Optional<DatabaseRow> findDatabase(String name, boolean registerAutoDatabase) {
        Optional<DatabaseRow> found = databases.stream().filter(d -> d.name().equals(name)).findFirst();
        if (found.isEmpty() && registerAutoDatabase && autoDatabases.contains(name)) {
            DatabaseRow row = database(name, "127.0.0.1", 5432, name, null, 20, null, false);
            databases.add(row);
            calls.add("register " + name);
            return Optional.of(row);
        }
        return found;
    }

    @Override
    public List<PoolRow> pools() {
        return List.of(
                new PoolRow("app", "alice", 1, 2, 0, 0, 1, 0, 0, 3, 0, 0, 0, 2_500_000, "transaction", null),
                new PoolRow("pgbouncer", "pgbouncer", 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, "statement", null));
    }

    @Override
    public List<SocketRow> clients() {
        return List.of(socket("C", "active", null), socket("C", "active", 0x55d0c1a2b400L), socket("C", "waiting", null));
    }

    @Override
    public List<SocketRow> servers() {
        return List.of(socket("S", "idle", null));
    }

    @Override
    public List<SocketRow> sockets() {
        return List.of(socket("C", "cl_active", null));
    }

    @Override
    public List<SocketRow> activeSockets() {
        return List.of(socket("S", "sv_active", 1L));
    }

    @Override
    public List<UserRow> users() {
        return List.of(new UserRow("alice", 30, null, "session", 0, 1, 0, 2),
                new UserRow("pgbouncer", null, null, null, 0, 0, 0, 1));
    }

    @Override
    public List<StatsRow> stats() {
        return List.of(new StatsRow("app", new StatsCounters(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11),
                new StatsCounters(12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22)));
    }

    @Override
    public StatsCounters totalCounters() {
        return new StatsCounters(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
    }

    @Override
    public StatsCounters totalAverages() {
        return new StatsCounters(12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22);
    }

    @Override
    public ListCounts lists() {
        return new ListCounts(2, 2, 0, 2, 0, 0, 3, 0, 0, 1, 0, 0, 0, 0);
    }

    @Override
    public List<PeerRow> peers() {
        return List.of(new PeerRow(2, "10.0.0.2", 6432, 20));
    }

    @Override
    public List<PeerPoolRow> peerPools() {
        return List.of(new PeerPoolRow(2, 0, 0, 0, 0));
    }

    @Override
    public List<DnsHostRow> dnsHosts() {
        return List.of(new DnsHostRow("db.example", 12, "10.0.0.5:5432"));
    }

    @Override
    public List<PoolScalingRow> poolScaling() {
        return List.of(new PoolScalingRow("alice", "app", 1, 2, 3, 4, 5, 6, 7, 8));
    }

    @Override
    public List<PinnedClientRow> pinnedClients() {
        return List.of(new PinnedClientRow("app", "alice", 7, "127.0.0.1", 40000, 3, 4242, "listen=1"));
    }

    @Override
    public List<PoolCoordinatorRow> poolCoordinators() {
        return List.of(new PoolCoordinatorRow("app", 50, 10, 5, 1, 2, 3, 4));
    }

    @Override
    public PauseMode pauseMode() {
        return pauseMode;
    }

    @Override
    public boolean shuttingDown() {
        return shuttingDown;
    }

    @Override
    public CompletionStage<Void> pause(String database) {
        calls.add("pause " + database);
        return pauseDone;
    }

    @Override
    public void resume(String database) {
        calls.add("resume " + database);
    }

    @Override
    public DatabaseControl control() {
        return this;
    }

    @Override
    public CompletionStage<Void> suspend() {
        calls.add("suspend");
        return suspendDone;
    }

    @Override
    public void disable(String database) {
        calls.add("disable " + database);
    }

    @Override
    public void enable(String database) {
        calls.add("enable " + database);
    }

    @Override
    public void reconnect(String database) {
        calls.add("reconnect " + database);
    }

    @Override
    public void kill(String database) {
        calls.add("kill " + database);
    }

    @Override
    public boolean killClient(long id) {
        calls.add("kill_client " + id);
        return clientIds.contains(id);
    }

    @Override
    public CompletionStage<Void> waitClose(String database) {
        calls.add("wait_close " + database);
        return waitCloseDone;
    }

    @Override
    public void shutdown(ShutdownMode mode) {
        calls.add("shutdown " + mode);
    }

    @Override
    public CompletionStage<Boolean> reload() {
        calls.add("reload");
        return reloadDone;
    }

    @Override
    public SetOutcome set(String key, String value) {
        calls.add("set " + key + "=" + value);
        return setOutcome;
    }

    @Override
    public void logInfo(String line) {
        infoLog.add(line);
    }

    @Override
    public void logError(String line) {
        errorLog.add(line);
    }
}
