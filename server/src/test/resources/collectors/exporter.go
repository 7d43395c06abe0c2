// prometheus-community pgbouncer_exporter: its collector.go, replayed with lib/pq.
// Part of the collector replay (see main.go).

package main

import (
	"database/sql"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

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
	for rows.Next() {
		data, err := scanAny(rows, len(cols))
		if err != nil {
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
	for rows.Next() {
		data, err := scanAny(rows, len(cols))
		if err != nil {
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

// scanAny reads one row into interface{} values through pointers, as the collectors do.
func scanAny(rows *sql.Rows, n int) ([]interface{}, error) {
	data := make([]interface{}, n)
	ptrs := make([]interface{}, n)
	for i := range data {
		ptrs[i] = &data[i]
	}
	return data, rows.Scan(ptrs...)
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
