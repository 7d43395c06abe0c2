/**
 * Sluice's built-in Prometheus endpoint: the metric families of the prometheus-community
 * pgbouncer_exporter and of Debian's prometheus-pgbouncer-exporter, computed from the same SHOW
 * tables those exporters read (so values agree with the console by construction), plus Sluice's
 * pool-pressure families. Knows no pool or session types: the runtime hands it {@link
 * io.sluice.metrics.ShowTable}s read on the event loop.
 */
package io.sluice.metrics;
