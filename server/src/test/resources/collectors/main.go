// Replays what four Go collectors (one file each) send to a PgBouncer admin console and how they read the
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
	"os"
	"sort"
	"strings"

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
