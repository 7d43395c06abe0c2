package io.sluice.runtime;

import io.sluice.admin.AdminAccess;
import io.sluice.admin.AdminConsole;
import io.sluice.admin.AdminResult;
import io.sluice.admin.AdminUser;
import io.sluice.admin.AdminValues;
import io.sluice.metrics.Families;
import io.sluice.metrics.PrometheusEndpoint;
import io.sluice.metrics.PrometheusMetrics;
import io.sluice.metrics.ShowTable;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Feeds the Prometheus endpoint: runs the SHOW commands the metric table needs through the same
 * {@link AdminConsole} the console uses (as a stats user), on the server's event loop, and turns
 * the row sets into text cells exactly as the console would send them. So the endpoint and an
 * exporter reading the console can never disagree.
 */
final class MetricsSource {
    private static final AdminUser READER = new AdminUser("pgbouncer", AdminAccess.STATS);

    private final SluiceServer server;
    private final AdminConsole console;

    MetricsSource(SluiceServer server) {
        this.server = server;
        this.console = new AdminConsole(new ServerAdminContext(server));
    }

    /** Binds the endpoint if {@code prometheus_listen_port} is set; null when it is off. */
    static PrometheusEndpoint startIfConfigured(SluiceServer server, io.netty.channel.EventLoopGroup group,
            io.sluice.net.Transport transport) throws InterruptedException {
        var s = server.routing().config().settings();
        int port = s.intValue("prometheus_listen_port");
        if (port <= 0) {
            return null;
        }
        MetricsSource source = new MetricsSource(server);
        PrometheusEndpoint ep = PrometheusEndpoint.bind(group, transport.serverSocketChannel(),
                s.string("prometheus_listen_addr"), port, new PrometheusMetrics(), source::read);
        io.sluice.log.Log.global().info("metrics: listening on " + s.string("prometheus_listen_addr") + ":" + port);
        return ep;
    }

    /** Hops to the loop, reads every table there, completes with them. */
    CompletionStage<Map<String, ShowTable>> read() {
        CompletableFuture<Map<String, ShowTable>> out = new CompletableFuture<>();
        server.loop().execute(() -> {
            try {
                List<CompletableFuture<ShowTable>> parts = new ArrayList<>();
                for (String cmd : Families.SOURCES) {
                    parts.add(console.execute("SHOW " + cmd, READER).toCompletableFuture()
                            .thenApply(MetricsSource::table));
                }
                CompletableFuture.allOf(parts.toArray(new CompletableFuture[0])).whenComplete((v, e) -> {
                    if (e != null) {
                        out.completeExceptionally(e);
                        return;
                    }
                    Map<String, ShowTable> tables = new LinkedHashMap<>();
                    for (int i = 0; i < parts.size(); i++) {
                        ShowTable t = parts.get(i).join();
                        if (t != null) {
                            tables.put(Families.SOURCES.get(i), t);
                        }
                    }
                    out.complete(tables);
                });
            } catch (RuntimeException e) {
                out.completeExceptionally(e);
            }
        });
        return out;
    }

    private static ShowTable table(List<AdminResult> results) {
        for (AdminResult r : results) {
            if (r instanceof AdminResult.RowSet rs) {
                List<String> cols = rs.columns().stream().map(AdminResult.Column::name).toList();
                List<List<String>> rows = new ArrayList<>();
                for (List<Object> row : rs.rows()) {
                    List<String> cells = new ArrayList<>(row.size());
                    row.forEach(v -> cells.add(AdminValues.toText(v)));
                    rows.add(cells);
                }
                return new ShowTable(cols, rows);
            }
        }
        return null;
    }
}
