# Replays the Datadog pgbouncer check (integrations-core pgbouncer.py + metrics.py) against a
# PgBouncer admin console: psycopg2 (libpq PQexec), autocommit, DictCursor, every column
# optional ("if column in row"), the pgbouncer database skipped, connect_time/request_time
# parsed as '%Y-%m-%d %H:%M:%S' after the first two words, and the version as the first
# \d+\.\d+\.\d+ of SHOW VERSION (or of the first notice). Prints one line per reported value:
# metric<TAB>tags<TAB>python-type<TAB>value, or ERROR<TAB>text.
# Usage: datadog_replay.py <port> <user>
import re
import sys
import time

import psycopg2 as pg
from psycopg2 import extras as pgextras

STATS = ([('database', 'db')], [
    ('total_requests', 'pgbouncer.stats.requests_per_second'),
    ('total_xact_count', 'pgbouncer.stats.transactions_per_second'),
    ('total_query_count', 'pgbouncer.stats.queries_per_second'),
    ('total_received', 'pgbouncer.stats.bytes_received_per_second'),
    ('total_sent', 'pgbouncer.stats.bytes_sent_per_second'),
    ('total_query_time', 'pgbouncer.stats.total_query_time'),
    ('total_xact_time', 'pgbouncer.stats.total_transaction_time'),
    ('total_wait_time', 'pgbouncer.stats.total_wait_time'),
    ('avg_req', 'pgbouncer.stats.avg_req'),
    ('avg_xact_count', 'pgbouncer.stats.avg_transaction_count'),
    ('avg_query_count', 'pgbouncer.stats.avg_query_count'),
    ('avg_wait_time', 'pgbouncer.stats.avg_wait_time'),
    ('avg_recv', 'pgbouncer.stats.avg_recv'),
    ('avg_sent', 'pgbouncer.stats.avg_sent'),
    ('avg_query', 'pgbouncer.stats.avg_query'),
    ('avg_xact_time', 'pgbouncer.stats.avg_transaction_time'),
    ('avg_query_time', 'pgbouncer.stats.avg_query_time')], 'SHOW STATS')
POOLS = ([('database', 'db'), ('user', 'user')], [
    (c, 'pgbouncer.pools.' + c) for c in
    ['cl_active', 'cl_waiting', 'sv_active', 'sv_idle', 'sv_used', 'sv_tested', 'sv_login', 'maxwait',
     'maxwait_us']], 'SHOW POOLS')
DATABASES = ([('name', 'name')], [
    (c, 'pgbouncer.databases.' + c) for c in ['pool_size', 'max_connections', 'current_connections']],
    'SHOW DATABASES')
CONFIG = ([], [('max_client_conn', 'pgbouncer.max_client_conn')], 'SHOW CONFIG')
CLIENTS = ([('database', 'db'), ('user', 'user'), ('state', 'state')], [
    ('connect_time', 'pgbouncer.clients.connect_time'), ('request_time', 'pgbouncer.clients.request_time'),
    ('wait', 'pgbouncer.clients.wait'), ('wait_us', 'pgbouncer.clients.wait_us')], 'SHOW CLIENTS')
SERVERS = ([('database', 'db'), ('user', 'user'), ('state', 'state')], [
    ('connect_time', 'pgbouncer.servers.connect_time'),
    ('request_time', 'pgbouncer.servers.request_time')], 'SHOW SERVERS')

out = []


def report(name, value, tags):
    float(value)  # AgentCheck.gauge/rate need a number
    out.append('%s\t%s\t%s\t%s' % (name, ','.join(sorted(tags)), type(value).__name__, value))


def main():
    port, user = sys.argv[1], sys.argv[2]
    conn = pg.connect(host='127.0.0.1', port=port, user=user, password='', database='pgbouncer')
    conn.set_isolation_level(pg.extensions.ISOLATION_LEVEL_AUTOCOMMIT)
    with conn.cursor(cursor_factory=pgextras.DictCursor) as cursor:
        for descriptors, metrics, query in [STATS, POOLS, DATABASES, CONFIG, CLIENTS, SERVERS]:
            try:
                cursor.execute(query)
                rows = list(cursor)
            except Exception as e:
                out.append('ERROR\t%s: %s' % (query, e))
                continue
            for row in rows:
                if 'key' in row:
                    row = row.copy()
                    row[row['key']] = row['value']
                elif row.get('database') == 'pgbouncer':
                    continue
                tags = ['%s:%s' % (tag, row[column]) for (column, tag) in descriptors if column in row]
                for column, name in metrics:
                    if column in row:
                        value = row[column]
                        if column in ['connect_time', 'request_time']:
                            value = re.findall(r'^[^ ]+ [^ ]+', value)[0]
                            value = time.mktime(time.strptime(value, '%Y-%m-%d %H:%M:%S'))
                        report(name, value, tags)
    with conn.cursor(cursor_factory=pgextras.DictCursor) as cursor:
        cursor.execute('SHOW VERSION;')
        data = conn.notices[0] if conn.notices else cursor.fetchone()[0]
        res = re.findall(r'\d+\.\d+\.\d+', data)
        out.append('version\t\tstr\t%s' % (res[0] if res else 'NONE from ' + data))
    print('\n'.join(sorted(out)))


main()
