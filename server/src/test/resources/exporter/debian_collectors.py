# Runs each collector of Debian's prometheus-pgbouncer-exporter (its own classes, unchanged)
# against one admin console and prints, per collector, the metric names it exposed or the error
# it raised, one line each: 'name<TAB>names<TAB>a,b' or 'name<TAB>error<TAB>text'. Usage: python3 debian_collectors.py PORT USER
import sys

from prometheus_client.core import CollectorRegistry
from prometheus_client.exposition import generate_latest
from prometheus_pgbouncer_exporter.collectors import (DatabasesCollector, ListsCollector,
                                                      PoolsCollector, StatsCollector)
from prometheus_pgbouncer_exporter.utils import get_connection

conn = get_connection(sys.argv[2], sys.argv[1], '127.0.0.1')
out = {}
for name, collector in (('stats', StatsCollector(connection=conn, databases=None)),
                        ('pools', PoolsCollector(connection=conn, databases=None)),
                        ('databases', DatabasesCollector(connection=conn, databases=None)),
                        ('lists', ListsCollector(connection=conn))):
    registry = CollectorRegistry()
    try:
        registry.register(collector)
        text = generate_latest(registry).decode()
        names = sorted({line.split('{')[0].split(' ')[0] for line in text.splitlines()
                        if line and not line.startswith('#')})
        out[name] = ('names', ','.join(names))
    except Exception as e:  # the exporter's own failure, reported as data
        out[name] = ('error', '%s: %s' % (type(e).__name__, e))
for name, (kind, text) in sorted(out.items()):
    print('%s\t%s\t%s' % (name, kind, text))
