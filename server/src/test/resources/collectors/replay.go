// Replays what four Go collectors send to a PgBouncer admin console and how they read the
// answers, with the drivers they use (lib/pq; pgx v4 stdlib in simple-protocol mode), and
// prints the parsed result one line each: what<TAB>labels<TAB>go-type<TAB>value, or
// ERROR<TAB>text. The Java test runs it against Sluice and against PgBouncer and compares.
// Built with Debian's golang-go 1.19, GOPATH=/usr/share/gocode GO111MODULE=off.
//
// Usage: replay exporter|netdata|telegraf|pgmetrics <port> <user>
package main

import (
	"database/sql"
	"fmt"
	"math"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v4"
	"github.com/jackc/pgx/v4/stdlib"
	_ "github.com/lib/pq"
)

var out []string

func emit(what string, labels []string, v interface{}) {
	sort.Strings(labels)
	out = append(out, fmt.Sprintf("%s\t%s\t%T\t%v", what, strings.Join(labels, ","), v, render(v)))
}

func render(v interface{}) interface{} {
	if b, ok := v.([]byte); ok {
		return string(b)
	}
	return v
}

func fail(format string, a ...interface{}) {
	out = append(out, "ERROR\t"+fmt.Sprintf(format, a...))
}

func main() {
	mode, port, user := os.Args[1], os.Args[2], os.Args[3]
	dsn := fmt.Sprintf("host=127.0.0.1 port=%s user=%s dbname=pgbouncer sslmode=disable", port, user)
	var db *sql.DB
	var err error
	if mode == "exporter" {
		// lib/pq: its startup packet carries extra_float_digits=2; Query without args is a simple 'Q'.
		db, err = sql.Open("postgres", dsn)
	} else {
		// Netdata and Telegraf (pgx v4 stdlib era) and pgmetrics set the simple protocol for PgBouncer.
		cfg, perr := pgx.ParseConfig(dsn)
		if perr != nil {
			panic(perr)
		}
		cfg.PreferSimpleProtocol = true
		db, err = sql.Open("pgx", stdlib.RegisterConnConfig(cfg))
	}
	if err != nil {
		panic(err)
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	switch mode {
	case "exporter":
		exporter(db)
	case "netdata":
		netdata(db)
	case "telegraf":
		telegraf(db)
	case "pgmetrics":
		pgmetrics(db)
	}
	sort.Strings(out)
	fmt.Println(strings.Join(out, "\n"))
}

// ---- prometheus-community pgbouncer_exporter (collector.go) ----

type mapping struct {
	metric string
	factor float64
}

var exporterMaps = map[string]map[string]mapping{
	"databases": {"pool_size": {"gauge pgbouncer_databases_pool_size", 1},
		"reserve_pool":        {"gauge pgbouncer_databases_reserve_pool", 1},
		"max_connections":     {"gauge pgbouncer_databases_max_connections", 1},
		"current_connections": {"gauge pgbouncer_databases_current_connections", 1},
		"paused":              {"gauge pgbouncer_databases_paused", 1},
		"disabled":            {"gauge pgbouncer_databases_disabled", 1}},
	"stats_totals": {"query_count": {"counter pgbouncer_stats_queries_pooled_total", 1},
		"query_time":         {"counter pgbouncer_stats_queries_duration_seconds_total", 1e-6},
		"bytes_received":     {"counter pgbouncer_stats_received_bytes_total", 1},
		"requests":           {"counter pgbouncer_stats_queries_total", 1},
		"bytes_sent":         {"counter pgbouncer_stats_sent_bytes_total", 1},
		"wait_time":          {"counter pgbouncer_stats_client_wait_seconds_total", 1e-6},
		"xact_count":         {"counter pgbouncer_stats_sql_transactions_pooled_total", 1},
		"xact_time":          {"counter pgbouncer_stats_server_in_transaction_seconds_total", 1e-6},
		"client_parse_count": {"counter pgbouncer_stats_client_parses_total", 1},
		"server_parse_count": {"counter pgbouncer_stats_server_parses_total", 1},
		"bind_count":         {"counter pgbouncer_stats_binds_total", 1}},
	"pools": {"cl_active": {"gauge pgbouncer_pools_client_active_connections", 1},
		"cl_active_cancel_req":  {"gauge pgbouncer_pools_client_active_cancel_connections", 1},
		"cl_waiting":            {"gauge pgbouncer_pools_client_waiting_connections", 1},
		"cl_waiting_cancel_req": {"gauge pgbouncer_pools_client_waiting_cancel_connections", 1},
		"sv_active":             {"gauge pgbouncer_pools_server_active_connections", 1},
		"sv_active_cancel":      {"gauge pgbouncer_pools_server_active_cancel_connections", 1},
		"sv_being_canceled":     {"gauge pgbouncer_pools_server_being_canceled_connections", 1},
		"sv_idle":               {"gauge pgbouncer_pools_server_idle_connections", 1},
		"sv_used":               {"gauge pgbouncer_pools_server_used_connections", 1},
		"sv_tested":             {"gauge pgbouncer_pools_server_testing_connections", 1},
		"sv_login":              {"gauge pgbouncer_pools_server_login_connections", 1},
		"maxwait":               {"gauge pgbouncer_pools_client_maxwait_seconds", 1}},
}

var exporterLabels = map[string][]string{
	"databases":    {"name", "host", "port", "database", "force_user", "pool_mode"},
	"stats_totals": {"database"},
	"pools":        {"database", "user"},
}

var listNames = map[string]string{"databases": "pgbouncer_databases", "users": "pgbouncer_users",
	"pools": "pgbouncer_pools", "free_clients": "pgbouncer_free_clients", "used_clients": "pgbouncer_used_clients",
	"login_clients": "pgbouncer_login_clients", "free_servers": "pgbouncer_free_servers",
	"used_servers": "pgbouncer_used_servers", "dns_names": "pgbouncer_cached_dns_names",
	"dns_zones": "pgbouncer_cached_dns_zones", "dns_queries": "pgbouncer_in_flight_dns_queries"}

func exporter(db *sql.DB) {
	up := 1.0
	defer func() { emit("gauge pgbouncer_up", nil, up) }()
	if rows, err := db.Query("SHOW STATS"); err != nil { // getDB's ping
		fail("error pinging pgbouncer: %v", err)
		up = 0
		return
	} else {
		rows.Close()
	}
	if err := exporterVersion(db); err != nil {
		fail("%v", err)
		up = 0
	}
	if err := exporterLists(db); err != nil {
		fail("%v", err)
		up = 0
	}
	if err := exporterConfig(db); err != nil {
		fail("%v", err)
		up = 0
	}
	if err := exporterClients(db); err != nil {
		fail("%v", err)
		up = 0
	}
	for _, ns := range []string{"databases", "stats_totals", "pools"} {
		if err := exporterNamespace(db, ns); err != nil {
			fail("%v", err)
			up = 0
		}
	}
}

func exporterVersion(db *sql.DB) error {
	rows, err := db.Query("SHOW VERSION;")
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	if len(cols) != 1 || cols[0] != "version" {
		return fmt.Errorf("show version didn't return version column")
	}
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return err
		}
		emit("gauge pgbouncer_version_info", []string{"version=" + v}, 1.0)
	}
	return rows.Err()
}

func exporterLists(db *sql.DB) error {
	rows, err := db.Query("SHOW LISTS;")
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil || len(cols) != 2 {
		return fmt.Errorf("error retrieving columns list from SHOW LISTS: %v", err)
	}
	var list string
	var items sql.RawBytes
	for rows.Next() {
		if err := rows.Scan(&list, &items); err != nil {
			return err
		}
		value, err := strconv.ParseFloat(string(items), 64)
		if err != nil {
			return fmt.Errorf("error parsing SHOW LISTS column: %v, error: %v", list, err)
		}
		if name, ok := listNames[list]; ok {
			emit("gauge "+name, nil, value)
		}
	}
	return rows.Err()
}

func exporterConfig(db *sql.DB) error {
	rows, err := db.Query("SHOW CONFIG;")
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var key, changeable string
	var value, def sql.RawBytes
	for rows.Next() {
		switch len(cols) {
		case 3:
			err = rows.Scan(&key, &value, &changeable)
		case 4:
			err = rows.Scan(&key, &value, &def, &changeable)
		default:
			return fmt.Errorf("invalid number of SHOW CONFIG columns: %d", len(cols))
		}
		if err != nil {
			return err
		}
		names := map[string]string{"max_client_conn": "pgbouncer_config_max_client_connections",
			"max_user_connections": "pgbouncer_config_max_user_connections"}
		if name, ok := names[key]; ok {
			v, err := strconv.ParseFloat(string(value), 64)
			if err != nil {
				return fmt.Errorf("error parsing SHOW CONFIG column: %v, error: %v", key, err)
			}
			emit("gauge "+name, nil, v)
		}
	}
	return rows.Err()
}

// exporterClients: 0.12 counts SHOW CLIENTS rows per database, user, state (and application_name).
func exporterClients(db *sql.DB) error {
	rows, err := db.Query("SHOW CLIENTS;")
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	idx := map[string]int{}
	for i, c := range cols {
		idx[c] = i
	}
	for _, need := range []string{"database", "user", "state"} {
		if _, ok := idx[need]; !ok {
			return fmt.Errorf("SHOW CLIENTS has no column %s", need)
		}
	}
	counts := map[string]float64{}
	data := make([]interface{}, len(cols))
	ptrs := make([]interface{}, len(cols))
	for i := range data {
		ptrs[i] = &data[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		key := []string{}
		for _, c := range []string{"database", "user", "state", "application_name"} {
			if i, ok := idx[c]; ok {
				key = append(key, c+"="+fmt.Sprint(render(data[i])))
			}
		}
		counts[strings.Join(key, ",")]++
	}
	for k, n := range counts {
		emit("gauge pgbouncer_clients", strings.Split(k, ","), n)
	}
	return rows.Err()
}

func exporterNamespace(db *sql.DB, ns string) error {
	rows, err := db.Query(fmt.Sprintf("SHOW %s;", ns))
	if err != nil {
		return fmt.Errorf("error running query on database: %v, error: %v", ns, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	data := make([]interface{}, len(cols))
	ptrs := make([]interface{}, len(cols))
	for i := range data {
		ptrs[i] = &data[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		labels := []string{}
		for _, label := range exporterLabels[ns] {
			for i, c := range cols {
				if c != label {
					continue
				}
				var s string
				switch v := data[i].(type) {
				case int64:
					s = strconv.Itoa(int(v))
				case float64:
					s = fmt.Sprintf("%f", v)
				case string:
					s = v
				case nil:
					s = ""
				default:
					fail("column %s in %s has an unhandled type %T for label", c, ns, v)
					s = "<invalid>"
				}
				if !utf8.ValidString(s) {
					s = "<invalid>"
				}
				labels = append(labels, label+"="+s)
			}
		}
		for i, c := range cols {
			m, ok := exporterMaps[ns][c]
			if !ok {
				continue
			}
			v, ok := toFloat(data[i], m.factor)
			if !ok {
				fail("unexpected error parsing namespace: %v, column: %v", ns, c)
				continue
			}
			emit(m.metric, append([]string(nil), labels...), v)
		}
	}
	return rows.Err()
}

func toFloat(t interface{}, factor float64) (float64, bool) {
	switch v := t.(type) {
	case int64:
		return float64(v) * factor, true
	case float64:
		return v * factor, true
	case []byte:
		r, err := strconv.ParseFloat(string(v), 64)
		return r * factor, err == nil
	case string:
		r, err := strconv.ParseFloat(v, 64)
		return r * factor, err == nil
	case nil:
		return math.NaN(), true
	}
	return math.NaN(), false
}

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
		data := make([]interface{}, len(cols))
		ptrs := make([]interface{}, len(cols))
		for i := range data {
			ptrs[i] = &data[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
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
