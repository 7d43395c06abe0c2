// Netdata go.d pgbouncer: its collect.go, replayed with pgx v4 stdlib in simple mode.
// Part of the collector replay (see main.go).

package main

import (
	"database/sql"
	"regexp"
	"strconv"
	"strings"
)

// ---- Netdata go.d pgbouncer (collect.go): every value through sql.NullString and ParseInt ----

var semverRe = regexp.MustCompile(`\d+\.\d+\.\d+`)

func netdata(db *sql.DB) {
	var resp string
	if err := db.QueryRow("SHOW VERSION;").Scan(&resp); err != nil {
		fail("%v", err)
		return
	}
	if !strings.Contains(resp, "PgBouncer") {
		fail("not PgBouncer instance: version response: %s", resp)
		return
	}
	ver := semverRe.FindString(resp)
	parts := strings.Split(ver, ".")
	major, _ := strconv.Atoi(parts[0])
	minor, _ := strconv.Atoi(parts[1])
	patch, _ := strconv.Atoi(parts[2])
	if major < 1 || (major == 1 && (minor < 8 || (minor == 8 && patch == 0))) {
		fail("unsupported version: v%s, required v1.8.0+", ver)
		return
	}
	emit("version_supported", nil, true)
	var key string
	var maxClientConn int64
	netdataQuery(db, "SHOW CONFIG;", func(c, v string) {
		if c == "key" {
			key = v
		} else if c == "value" && key == "max_client_conn" {
			maxClientConn = parseInt(v)
		}
	})
	emit("max_client_conn", nil, maxClientConn)
	dbs := map[string]map[string]int64{}
	get := func(name string) map[string]int64 {
		if dbs[name] == nil {
			dbs[name] = map[string]int64{}
		}
		return dbs[name]
	}
	var cur string
	// The callback keeps the "current" database from the name/database column, so those must
	// come before the metric columns.
	netdataQuery(db, "SHOW DATABASES;", func(c, v string) {
		switch c {
		case "name":
			cur = v
			get(cur)
		case "max_connections", "current_connections", "paused", "disabled":
			get(cur)[c] = parseInt(v)
		}
	})
	netdataQuery(db, "SHOW STATS;", func(c, v string) {
		switch c {
		case "database":
			cur = v
			get(cur)
		case "total_xact_count", "total_query_count", "total_received", "total_sent", "total_xact_time",
			"total_query_time", "total_wait_time", "avg_xact_time", "avg_query_time":
			get(cur)[c] = parseInt(v)
		}
	})
	netdataQuery(db, "SHOW POOLS;", func(c, v string) {
		switch c {
		case "database":
			cur = v
			get(cur)
		case "cl_active", "cl_waiting", "cl_cancel_req", "sv_active", "sv_idle", "sv_used", "sv_tested",
			"sv_login", "maxwait", "maxwait_us":
			get(cur)[c] += parseInt(v)
		}
	})
	for name, m := range dbs {
		for k, v := range m {
			emit("db_"+k, []string{"db=" + name}, v)
		}
	}
}

func netdataQuery(db *sql.DB, q string, assign func(column, value string)) {
	rows, err := db.Query(q)
	if err != nil {
		fail("%s: %v", q, err)
		return
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	vals := make([]interface{}, len(cols))
	for i := range vals {
		vals[i] = &sql.NullString{}
	}
	for rows.Next() {
		if err := rows.Scan(vals...); err != nil {
			fail("%s: %v", q, err)
			return
		}
		for i, v := range vals {
			ns := v.(*sql.NullString)
			s := ""
			if ns.Valid {
				s = ns.String
			}
			assign(cols[i], s)
		}
	}
}

func parseInt(s string) int64 {
	v, _ := strconv.ParseInt(s, 10, 64)
	return v
}
