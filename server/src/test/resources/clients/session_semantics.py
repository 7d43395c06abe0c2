"""Session semantics through a pooler, with a real Python driver.

Usage: session_semantics.py LIB HOST PORT DBNAME MULTI
  LIB   psycopg2 | psycopg | asyncpg
  MULTI 1 when the target pools transactions over fewer servers than clients (a prepared
        statement must then be served by at least two backends), 0 otherwise (one backend).

Prints one "ok <case>" line per case; any failure raises (exit code 1). Every wait is bounded.
"""
import sys
import threading
import time

LIB, HOST, PORT, DB, MULTI = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5] == "1"
DSN = dict(host=HOST, port=PORT, dbname=DB, user="postgres")
DEADLINE = time.monotonic() + 120


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def bounded():
    check(time.monotonic() < DEADLINE, "ran out of time")


# ---------------------------------------------------------------- blocking drivers (psycopg2/3)

def connect():
    if LIB == "psycopg2":
        import psycopg2
        c = psycopg2.connect(**DSN)
        c.autocommit = True
        return c
    import psycopg
    return psycopg.connect(autocommit=True, **DSN)


def one(conn, sql, params=None, prepare=None):
    if LIB == "psycopg":
        return conn.execute(sql, params, prepare=prepare).fetchone()[0]
    with conn.cursor() as cur:
        cur.execute(sql, params)
        return cur.fetchone()[0]


def run(conn, sql, params=None):
    if LIB == "psycopg":
        conn.execute(sql, params)
    else:
        with conn.cursor() as cur:
            cur.execute(sql, params)


class Background:
    """Clients that keep the pool's servers busy with short transactions until stopped."""

    def __init__(self, n):
        self.stop = threading.Event()
        self.errors = []
        self.threads = [threading.Thread(target=self.loop, daemon=True) for _ in range(n)]
        for t in self.threads:
            t.start()

    def loop(self):
        try:
            conn = connect()
            for _ in range(100000):
                if self.stop.is_set() or time.monotonic() > DEADLINE:
                    break
                run(conn, "select pg_sleep(0.002)")
            conn.close()
        except Exception as e:  # reported by close()
            self.errors.append(e)

    def close(self):
        self.stop.set()
        for t in self.threads:
            t.join(30)
        check(not self.errors, "background client failed: %r" % self.errors)


def prepared_five_times():
    target, holder = connect(), connect()
    bg = Background(2)
    pids = set()
    if LIB == "psycopg2":  # no protocol-level statements: SQL PREPARE/EXECUTE
        run(target, "PREPARE p5 (int) AS SELECT pg_backend_pid(), $1 + 1")
    last = None
    for i in range(5):
        held = i % 2 == 0
        if held:  # another client keeps a server (the one the statement ran on last, if it can)
            for _ in range(50):
                run(holder, "BEGIN")
                if not MULTI or last is None or one(holder, "select pg_backend_pid()") == last:
                    break
                run(holder, "COMMIT")
        if LIB == "psycopg2":
            with target.cursor() as cur:
                cur.execute("EXECUTE p5 (%s)", (i,))
                pid, v = cur.fetchone()
        else:
            pid, v = target.execute("select pg_backend_pid(), %s::int + 1", (i,), prepare=True).fetchone()
        check(v == i + 1, "wrong result")
        pids.add(pid)
        last = pid
        if held:
            run(holder, "COMMIT")
    bg.close()
    if MULTI:
        check(len(pids) >= 2, "expected two backends, saw %s" % pids)
    else:
        check(len(pids) == 1, "expected one backend, saw %s" % pids)
    target.close()
    holder.close()
    print("ok prepared_five_times backends=%d" % len(pids))


def twenty_by_fifty():
    errors = []

    def worker(n):
        try:
            conn = connect()
            for i in range(50):
                if LIB == "psycopg":
                    with conn.transaction():
                        v = conn.execute("select %s::int * 2", (i,)).fetchone()[0]
                else:
                    conn.autocommit = False
                    v = one(conn, "select %s::int * 2", (i,))
                    conn.commit()
                check(v == 2 * i, "wrong result")
            conn.close()
        except Exception as e:
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(90)
    check(not errors, "workers failed: %r" % errors[:3])
    print("ok twenty_by_fifty")


def set_stays_with_its_client():
    a, b = connect(), connect()
    bg = Background(2)
    run(a, "SET statement_timeout = '4321ms'")
    for _ in range(10):
        bounded()
        check(one(a, "show statement_timeout") == "4321ms", "client lost its SET")
        check(one(b, "show statement_timeout") != "4321ms", "another client's SET leaked")
    bg.close()
    a.close()
    b.close()
    print("ok set_stays_with_its_client")


def listen_notify():
    a, b = connect(), connect()
    bg = Background(2)
    run(a, "LISTEN sluice_jobs")
    run(b, "NOTIFY sluice_jobs, 'hello'")
    got = None
    if LIB == "psycopg2":
        import select
        while got is None and time.monotonic() < DEADLINE:
            select.select([a], [], [], 1)
            a.poll()
            if a.notifies:
                got = a.notifies.pop(0).payload
    else:
        seen = []
        a.add_notify_handler(lambda n: seen.append(n.payload))
        while not seen and time.monotonic() < DEADLINE:
            a.execute("select 1")
            time.sleep(0.05)
        got = seen[0] if seen else None
    check(got == "hello", "notification lost")
    run(a, "UNLISTEN *")
    bg.close()
    a.close()
    b.close()
    print("ok listen_notify")


def temp_table():
    a = connect()
    bg = Background(3)
    run(a, "CREATE TEMP TABLE sluice_t (v int)")
    for i in range(3):
        run(a, "INSERT INTO sluice_t VALUES (%s)", (i,))
    check(one(a, "select count(*) from sluice_t") == 3, "temp table rows lost")
    run(a, "DROP TABLE sluice_t")
    bg.close()
    a.close()
    print("ok temp_table")


def advisory_lock():
    a, b = connect(), connect()
    bg = Background(2)
    one(a, "select pg_advisory_lock(424242)")
    check(one(b, "select pg_try_advisory_lock(424242)") is False, "lock not held")
    check(one(a, "select pg_advisory_unlock(424242)") is True, "lock held elsewhere")
    check(one(b, "select pg_try_advisory_lock(424242)") is True, "lock not released")
    one(b, "select pg_advisory_unlock(424242)")
    bg.close()
    a.close()
    b.close()
    print("ok advisory_lock")


# ---------------------------------------------------------------- asyncpg

async def asyncpg_main():
    import asyncio
    import asyncpg

    async def conn():
        return await asyncpg.connect(host=HOST, port=PORT, database=DB, user="postgres", ssl=False)

    async def busy(stop):
        c = await conn()
        while not stop.is_set() and time.monotonic() < DEADLINE:
            await c.execute("select pg_sleep(0.002)")
        await c.close()

    async def with_background(n, body):
        stop = asyncio.Event()
        tasks = [asyncio.create_task(busy(stop)) for _ in range(n)]
        try:
            await body()
        finally:
            stop.set()
            await asyncio.wait_for(asyncio.gather(*tasks), 30)

    async def prepared():
        target, holder = await conn(), await conn()
        stmt = await target.prepare("select pg_backend_pid(), $1::int + 1")
        pids = set()
        last = None
        for i in range(5):
            held = i % 2 == 0
            tr = None
            if held:
                for _ in range(50):
                    tr = holder.transaction()
                    await tr.start()
                    if not MULTI or last is None or await holder.fetchval("select pg_backend_pid()") == last:
                        break
                    await tr.commit()
            pid, v = await stmt.fetchrow(i)
            check(v == i + 1, "wrong result")
            pids.add(pid)
            last = pid
            if held:
                await tr.commit()
        check(len(pids) >= 2 if MULTI else len(pids) == 1, "backends %s" % pids)
        await target.close()
        await holder.close()
        print("ok prepared_five_times backends=%d" % len(pids))

    async def many():
        async def worker():
            c = await conn()
            for i in range(50):
                async with c.transaction():
                    check(await c.fetchval("select $1::int * 2", i) == 2 * i, "wrong result")
            await c.close()
        await asyncio.wait_for(asyncio.gather(*[worker() for _ in range(20)]), 90)
        print("ok twenty_by_fifty")

    async def settings():
        a, b = await conn(), await conn()
        await a.execute("SET statement_timeout = '4321ms'")
        for _ in range(10):
            check(await a.fetchval("show statement_timeout") == "4321ms", "client lost its SET")
            check(await b.fetchval("show statement_timeout") != "4321ms", "another client's SET leaked")
        await a.close()
        await b.close()
        print("ok set_stays_with_its_client")

    async def listen():
        a, b = await conn(), await conn()
        got = asyncio.get_running_loop().create_future()
        await a.add_listener("sluice_jobs", lambda *args: got.done() or got.set_result(args[3]))
        await b.execute("NOTIFY sluice_jobs, 'hello'")
        check(await asyncio.wait_for(got, 10) == "hello", "notification lost")
        await a.close()
        await b.close()
        print("ok listen_notify")

    async def temp():
        a = await conn()
        await a.execute("CREATE TEMP TABLE sluice_t (v int)")
        for i in range(3):
            await a.execute("INSERT INTO sluice_t VALUES ($1)", i)
        check(await a.fetchval("select count(*) from sluice_t") == 3, "temp table rows lost")
        await a.execute("DROP TABLE sluice_t")
        await a.close()
        print("ok temp_table")

    async def advisory():
        a, b = await conn(), await conn()
        await a.fetchval("select pg_advisory_lock(424242)")
        check(await b.fetchval("select pg_try_advisory_lock(424242)") is False, "lock not held")
        check(await a.fetchval("select pg_advisory_unlock(424242)") is True, "lock held elsewhere")
        check(await b.fetchval("select pg_try_advisory_lock(424242)") is True, "lock not released")
        await b.fetchval("select pg_advisory_unlock(424242)")
        await a.close()
        await b.close()
        print("ok advisory_lock")

    await with_background(2, prepared)
    await many()
    for case in (settings, listen, temp, advisory):
        await with_background(2, case)


if __name__ == "__main__":
    if LIB == "asyncpg":
        import asyncio
        asyncio.run(asyncpg_main())
    else:
        prepared_five_times()
        twenty_by_fifty()
        set_stays_with_its_client()
        listen_notify()
        temp_table()
        advisory_lock()
