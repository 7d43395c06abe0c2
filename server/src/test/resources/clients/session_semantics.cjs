'use strict';
/*
 * Session semantics through a pooler, with a real Node.js driver (the Node twin of
 * session_semantics.py; SessionSemanticsIT runs both).
 *
 * Usage: node session_semantics.cjs LIB HOST PORT DBNAME MULTI
 *   LIB   pg (node-postgres) | postgres (postgres.js), found through NODE_PATH
 *   MULTI 1 when the target pools transactions over fewer servers than clients (a prepared
 *         statement must then be served by at least two backends), 0 otherwise (one backend).
 *
 * Prints one "ok <case>" line per case; any failure exits non-zero. Every wait is bounded.
 */
const [LIB, HOST, PORT, DB, MULTI_ARG] = process.argv.slice(2);
const MULTI = MULTI_ARG === '1';
const DEADLINE = Date.now() + 120_000;

function check(cond, what) {
  if (!cond) throw new Error(what);
}

function within(promise, ms, what) {
  let timer;
  const late = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(what)), ms); });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/*
 * One small client interface over both libraries, so the cases below are written once:
 * q(text, values) runs one statement (the library's own default protocol and preparing),
 * named(name, text, values) asks for a reusable prepared statement the library's way,
 * listen(channel, fn) subscribes, close() ends the connection.
 */
async function connect() {
  if (LIB === 'pg') {
    const pg = require('pg');
    const c = new pg.Client({ host: HOST, port: Number(PORT), database: DB, user: 'postgres' });
    await c.connect();
    return {
      q: async (text, values) => (await c.query(text, values)).rows,
      // node-postgres prepares when a query has a name: Parse once per connection, then Bind only
      named: async (name, text, values) => (await c.query({ name, text, values })).rows,
      listen: async (channel, fn) => {
        c.on('notification', (n) => n.channel === channel && fn(n.payload));
        await c.query('LISTEN ' + channel);
      },
      close: () => c.end(),
    };
  }
  const postgres = require('postgres');
  // max: 1 makes the "pool" one connection, a client like the others; postgres.js prepares every
  // query by default (prepare: true), so plain queries are named statements on the wire
  const sql = postgres({ host: HOST, port: Number(PORT), database: DB, username: 'postgres', max: 1,
    idle_timeout: 0, connect_timeout: 30, onnotice: () => {} });
  await sql`select 1`;
  return {
    q: (text, values) => sql.unsafe(text, values || []),
    named: (_name, text, values) => sql.unsafe(text, values || [], { prepare: true }),
    // postgres.js listens on a connection of its own, which it opens here
    listen: (channel, fn) => sql.listen(channel, fn),
    close: () => sql.end({ timeout: 5 }),
  };
}

const first = (rows) => rows[0][Object.keys(rows[0])[0]];

/** Clients that keep the pool's servers busy with short transactions until stopped. */
async function withBackground(n, body) {
  let stop = false;
  const loops = [];
  for (let i = 0; i < n; i++) {
    loops.push((async () => {
      const c = await connect();
      for (let k = 0; k < 100000 && !stop && Date.now() < DEADLINE; k++) {
        await c.q('select pg_sleep(0.002)');
      }
      await c.close();
    })());
  }
  try {
    await body();
  } finally {
    stop = true;
    await within(Promise.all(loops), 30_000, 'background clients did not stop');
  }
}

async function preparedFiveTimes() {
  const target = await connect();
  const holder = await connect();
  const pids = new Set();
  let last = null;
  for (let i = 0; i < 5; i++) {
    const held = i % 2 === 0;
    if (held) { // another client keeps a server (the one the statement ran on last, if it can)
      for (let a = 0; a < 50; a++) {
        await holder.q('BEGIN');
        if (!MULTI || last === null || first(await holder.q('select pg_backend_pid() as pid')) === last) break;
        await holder.q('COMMIT');
      }
    }
    const [row] = await target.named('p5', 'select pg_backend_pid() as pid, $1::int + 1 as v', [i]);
    check(row.v === i + 1, 'wrong result ' + JSON.stringify(row));
    pids.add(row.pid);
    last = row.pid;
    if (held) await holder.q('COMMIT');
  }
  check(MULTI ? pids.size >= 2 : pids.size === 1, 'backends ' + [...pids]);
  await target.close();
  await holder.close();
  console.log('ok prepared_five_times backends=' + pids.size);
}

async function twentyByFifty() {
  const worker = async () => {
    const c = await connect();
    for (let i = 0; i < 50; i++) {
      await c.q('BEGIN');
      // the library's default: postgres.js prepares every query, node-postgres a named one
      const v = first(await c.named('double', 'select $1::int * 2 as v', [i]));
      await c.q('COMMIT');
      check(v === 2 * i, 'wrong result ' + v);
    }
    await c.close();
  };
  await within(Promise.all(Array.from({ length: 20 }, worker)), 90_000, 'workers did not finish');
  console.log('ok twenty_by_fifty');
}

async function setStaysWithItsClient() {
  const a = await connect();
  const b = await connect();
  await a.q("SET statement_timeout = '4321ms'");
  for (let i = 0; i < 10; i++) {
    check(first(await a.q('show statement_timeout')) === '4321ms', 'client lost its SET');
    check(first(await b.q('show statement_timeout')) !== '4321ms', "another client's SET leaked");
  }
  await a.close();
  await b.close();
  console.log('ok set_stays_with_its_client');
}

async function listenNotify() {
  const a = await connect();
  const b = await connect();
  let heard;
  const got = new Promise((resolve) => { heard = resolve; });
  await a.listen('sluice_jobs', heard);
  await b.q("NOTIFY sluice_jobs, 'hello'");
  // the listener sends nothing meanwhile: the notification must reach it while it sits idle
  check(await within(got, 10_000, 'notification lost') === 'hello', 'wrong payload');
  await a.close();
  await b.close();
  console.log('ok listen_notify');
}

async function tempTable() {
  const a = await connect();
  await a.q('CREATE TEMP TABLE sluice_t (v int)');
  for (let i = 0; i < 3; i++) await a.q('INSERT INTO sluice_t VALUES ($1)', [i]);
  check(Number(first(await a.q('select count(*) from sluice_t'))) === 3, 'temp table rows lost');
  await a.q('DROP TABLE sluice_t');
  await a.close();
  console.log('ok temp_table');
}

async function advisoryLock() {
  const a = await connect();
  const b = await connect();
  await a.q('select pg_advisory_lock(434343)');
  check(first(await b.q('select pg_try_advisory_lock(434343)')) === false, 'lock not held');
  check(first(await a.q('select pg_advisory_unlock(434343)')) === true, 'lock held elsewhere');
  check(first(await b.q('select pg_try_advisory_lock(434343)')) === true, 'lock not released');
  await b.q('select pg_advisory_unlock(434343)');
  await a.close();
  await b.close();
  console.log('ok advisory_lock');
}

async function main() {
  check(LIB === 'pg' || LIB === 'postgres', 'unknown library ' + LIB);
  await withBackground(2, preparedFiveTimes);
  await twentyByFifty();
  for (const c of [setStaysWithItsClient, listenNotify, tempTable, advisoryLock]) {
    await withBackground(c === tempTable ? 3 : 2, c);
  }
}

const overall = setTimeout(() => { console.error('ran out of time'); process.exit(3); }, DEADLINE - Date.now());
main().then(() => { clearTimeout(overall); }, (e) => {
  console.error(e && e.stack ? e.stack : e);
  process.exit(1);
});
