// Telegraf inputs.pgbouncer: its pgbouncer.go, replayed with pgx v4 stdlib in simple mode.
// Part of the collector replay (see main.go).

package main

import (
	"database/sql"
	"fmt"
	"strconv"
	"strings"
)

// ---- Telegraf inputs.pgbouncer: values into interface{} by column name ----

var telegrafIgnored = map[string]bool{"user": true, "database": true, "pool_mode": true, "avg_req": true,
	"avg_recv": true, "avg_sent": true, "avg_query": true, "force_user": true, "host": true, "port": true,
	"name": true}

func telegraf(db *sql.DB) {
	for _, cmd := range []string{"stats", "pools", "lists", "databases"} {
		if err := telegrafShow(db, cmd); err != nil {
			fail("SHOW %s: %v", strings.ToUpper(cmd), err)
			return // an error ends the gather
		}
	}
}

func telegrafShow(db *sql.DB, cmd string) error {
	rows, err := db.Query("SHOW " + strings.ToUpper(cmd))
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	for rows.Next() {
		row := map[string]interface{}{}
		data, err := scanAny(rows, len(cols))
		if err != nil {
			return err
		}
		for i, c := range cols {
			row[c] = data[i]
		}
		if cmd == "lists" {
			list, ok1 := row["list"].(string)
			items, ok2 := row["items"].(int64)
			if !ok1 || !ok2 {
				return fmt.Errorf("SHOW LISTS: list %T, items %T", row["list"], row["items"])
			}
			if list != "dns_pending" {
				emit("pgbouncer_lists "+list, nil, items)
			}
			continue
		}
		dbcol := "database"
		if cmd == "databases" {
			dbcol = "name"
		}
		dbname, ok := row[dbcol].(string)
		if !ok {
			return fmt.Errorf("%s is %T, not a string", dbcol, row[dbcol])
		}
		tags := []string{"db=" + dbname}
		if u, ok := row["user"].(string); ok && u != "" {
			tags = append(tags, "user="+u)
		}
		if m, ok := row["pool_mode"].(string); ok && m != "" {
			tags = append(tags, "pool_mode="+m)
		}
		for c, v := range row {
			if telegrafIgnored[c] {
				continue
			}
			if cmd == "stats" {
				switch x := v.(type) {
				case int64:
					emit("pgbouncer "+c, append([]string(nil), tags...), x)
				case string:
					n, err := strconv.ParseInt(x, 10, 64)
					if err != nil {
						return err
					}
					emit("pgbouncer "+c, append([]string(nil), tags...), n)
				} // other types are dropped
				continue
			}
			emit("pgbouncer_"+cmd+" "+c, append([]string(nil), tags...), v)
		}
	}
	return rows.Err()
}
