// pgmetrics: its collector/pgbouncer.go, replayed with pgx v4 stdlib in simple mode.
// Part of the collector replay (see main.go).

package main

import (
	"database/sql"
)

// ---- pgmetrics (collector/pgbouncer.go): positional Scan chosen by column count ----

func pgmetrics(db *sql.DB) {
	counts := map[string][]int{"SHOW POOLS": {12, 13, 16, 17}, "SHOW SERVERS": {16, 17, 18, 19, 20, 21},
		"SHOW CLIENTS": {16, 17, 18, 19, 20, 21}, "SHOW STATS": {15, 17, 23}, "SHOW DATABASES": {12, 13, 14, 17}}
	for _, q := range []string{"SHOW POOLS", "SHOW SERVERS", "SHOW CLIENTS", "SHOW STATS", "SHOW DATABASES"} {
		rows, err := db.Query(q)
		if err != nil {
			fail("pgbouncer: %s query failed: %v", q, err)
			return // log.Fatalf
		}
		cols, _ := rows.Columns()
		ok := false
		for _, n := range counts[q] {
			ok = ok || n == len(cols)
		}
		if !ok {
			rows.Close()
			fail("pgbouncer: unsupported number of columns %d in '%s'", len(cols), q)
			return
		}
		n := 0
		for rows.Next() {
			if err := pgmetricsRow(q, cols, rows); err != nil {
				rows.Close()
				fail("pgbouncer: %s query failed: %v", q, err)
				return
			}
			n++
		}
		rows.Close()
		emit("rows", []string{"query=" + q}, n)
	}
}

// pgmetricsRow scans with the Go types pgmetrics uses at each position: strings for names,
// int/float64 for the counters, so a text where a number is expected fails the Scan.
func pgmetricsRow(q string, cols []string, rows *sql.Rows) error {
	dest := make([]interface{}, len(cols))
	var state string
	for i := range dest {
		dest[i] = new(sql.NullString)
	}
	switch q {
	case "SHOW POOLS":
		mode := map[int]int{12: 11, 13: 12, 16: 15, 17: 15}[len(cols)] // pool_mode; maxwait_us before it
		dest[0], dest[1], dest[mode] = new(string), new(string), new(string)
		for i := 2; i < mode-1; i++ {
			dest[i] = new(int)
		}
		dest[mode-1] = new(float64)
	case "SHOW SERVERS", "SHOW CLIENTS":
		st, wait := 3, 10
		if len(cols) >= 20 {
			st, wait = 4, 11
		}
		dest[st] = &state
		dest[wait], dest[wait+1] = new(float64), new(float64)
	case "SHOW STATS":
		dest[0] = new(string)
		for i := 1; i < len(cols); i++ {
			dest[i] = new(float64)
		}
	case "SHOW DATABASES":
		dest[0], dest[2], dest[3] = new(string), new(int), new(string)
		last := len(cols) - 1
		dest[last], dest[last-1] = new(int), new(int) // disabled, paused
		if len(cols) == 17 {
			dest[11], dest[12], dest[13], dest[14] = new(int), new(int), new(int), new(int)
		} else {
			dest[last-3], dest[last-2] = new(int), new(int)
		}
	}
	if err := rows.Scan(dest...); err != nil {
		return err
	}
	if state != "" {
		emit("state", []string{"query=" + q, "state=" + state}, 1)
	}
	return nil
}
