package io.sluice.admin;

/**
 * SHOW CLIENTS, SERVERS, SOCKETS and ACTIVE_SOCKETS: PgBouncer's socket_header/socket_row,
 * 21 columns, plus 7 debug columns for the SOCKETS pair.
 */
final class SocketTables {

    private static final long MICROS = 1_000_000L;

    private SocketTables() {
    }

    static ShowTable<SocketRow> clients() {
        return standard(ShowTable.of("CLIENTS", AdminContext::clients));
    }

    static ShowTable<SocketRow> servers() {
        return standard(ShowTable.of("SERVERS", AdminContext::servers));
    }

    static ShowTable<SocketRow> sockets() {
        return debug(standard(ShowTable.of("SOCKETS", AdminContext::sockets)));
    }

    static ShowTable<SocketRow> activeSockets() {
        return debug(standard(ShowTable.of("ACTIVE_SOCKETS", AdminContext::activeSockets)));
    }

    private static ShowTable<SocketRow> standard(ShowTable<SocketRow> t) {
        return t.text("type", SocketRow::type)
                .text("user", r -> r.user() != null ? r.user() : "(nouser)")
                .text("database", r -> r.database() != null ? r.database() : "(nodb)")
                .text("replication", SocketRow::replication)
                // an "active" socket with no partner is how idle clients show up
                .text("state", r -> r.link() == null && r.state().equals("active") ? "idle" : r.state())
                .text("addr", SocketRow::addr)
                .int4("port", SocketRow::port)
                .text("local_addr", SocketRow::localAddr)
                .int4("local_port", SocketRow::localPort)
                .column("connect_time", PgType.TEXT, (r, c) -> time(r.connectTimeMillis(), c))
                .column("request_time", PgType.TEXT, (r, c) -> time(r.requestTimeMillis(), c))
                .int4("wait", r -> (int) (r.waitMicros() / MICROS))
                .int4("wait_us", r -> (int) (r.waitMicros() % MICROS))
                .int4("close_needed", r -> r.closeNeeded() ? 1 : 0)
                .text("ptr", r -> AdminValues.pointer(r.ptr()))
                .text("link", r -> r.link() == null ? "" : AdminValues.pointer(r.link()))
                .int4("remote_pid", SocketRow::remotePid)
                .text("tls", r -> r.tls() == null ? "" : r.tls())
                .text("application_name", r -> r.applicationName() == null ? "" : r.applicationName())
                .int4("prepared_statements", SocketRow::preparedStatements)
                // PgBouncer prints its 64-bit id through %d, i.e. as a 32-bit int
                .int4("id", r -> (int) r.id());
    }

    private static ShowTable<SocketRow> debug(ShowTable<SocketRow> t) {
        return t.int4("recv_pos", r -> r.buffers().recvPos())
                .int4("pkt_pos", r -> r.buffers().pktPos())
                .int4("pkt_remain", r -> r.buffers().pktRemain())
                .int4("send_pos", r -> r.buffers().sendPos())
                .int4("send_remain", r -> r.buffers().sendRemain())
                .int4("pkt_avail", r -> r.buffers().pktAvail())
                .int4("send_avail", r -> r.buffers().sendAvail());
    }

    /** PgBouncer's format_time_s prints a zero timestamp as the current time. */
    private static String time(long epochMillis, AdminContext ctx) {
        return AdminValues.timestamp(epochMillis == 0 ? ctx.currentTimeMillis() : epochMillis);
    }
}
