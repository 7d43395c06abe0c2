package io.sluice.it;

import io.sluice.testkit.FreePorts;
import io.sluice.testkit.PgBouncerProcess;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * For the monitoring tests: one fresh database of the shared cluster behind Sluice (in this JVM,
 * with its Prometheus endpoint on) and, when installed, Debian's PgBouncer, both from the same
 * settings (trust, transaction pooling, pool size 7, {@code postgres} admin and {@code watcher}
 * stats user, plus {@code extra}). Each has answered one psql query when {@link #start} returns.
 * {@code pgbouncer} is null when PgBouncer is not installed.
 */
record ConsolePair(PgCluster pg, String db, SluiceFixture sluice, PgBouncerProcess pgbouncer)
        implements AutoCloseable {

    static ConsolePair start(String dbPrefix, String extra) throws Exception {
        PgCluster pg = PgCluster.shared();
        String db = PgCluster.uniqueName(dbPrefix);
        pg.createDatabase(db, PgCluster.SUPERUSER);
        String databases = db + " = host=127.0.0.1 port=$PGPORT";
        String settings = "auth_type = trust\npool_mode = transaction\ndefault_pool_size = 7\n"
                + "admin_users = postgres\nstats_users = watcher\n" + extra;
        String users = "\"postgres\" \"\"\n\"watcher\" \"\"\n";
        SluiceFixture sluice = SluiceFixture.start(pg, databases,
                settings + "\nprometheus_listen_port = " + FreePorts.next(), users);
        PgBouncerProcess pgbouncer = null;
        try {
            if (PgBouncerProcess.available()) {
                pgbouncer = PgBouncerProcess.start("[databases]\n"
                        + databases.replace("$PGPORT", String.valueOf(pg.port())) + "\n[pgbouncer]\n" + settings + "\n",
                        users);
            }
            ConsolePair pair = new ConsolePair(pg, db, sluice, pgbouncer);
            for (int port : pgbouncer == null ? new int[] {sluice.port} : new int[] {sluice.port, pgbouncer.port()}) {
                ProcessResult r = ProcessRunner.psql("127.0.0.1", port, db, "postgres", null, "select 1");
                assertThat(r.exitCode()).as(r.describe()).isZero();
            }
            return pair;
        } catch (Exception | AssertionError e) {
            sluice.close();
            if (pgbouncer != null) {
                pgbouncer.close();
            }
            throw e;
        }
    }

    @Override
    public void close() throws Exception {
        try {
            sluice.close();
        } finally {
            if (pgbouncer != null) {
                pgbouncer.close();
            }
        }
    }
}
