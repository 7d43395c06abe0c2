package io.sluice.proto.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.sluice.proto.PgError;
import io.sluice.proto.StartupPacket;
import io.sluice.proto.TransactionStatus;

import java.util.List;
import java.util.Map;

/** Builds the messages Sluice writes itself, to clients and to servers. */
public final class Encoders {
    private Encoders() {
    }

    // ---- to clients -------------------------------------------------------------------

    /**
     * ErrorResponse, or NoticeResponse when severity is NOTICE/WARNING/INFO. Fields S, C, M (and
     * D when there is a detail), as PgBouncer writes its own errors and notices: no V (the
     * untranslated severity PostgreSQL adds), which clients read only when present.
     */
    public static ByteBuf error(ByteBufAllocator alloc, PgError e) {
        boolean notice = switch (e.severity()) {
            case "NOTICE", "WARNING", "INFO", "LOG", "DEBUG" -> true;
            default -> false;
        };
        ByteBuf buf = Wire.buffer(alloc);
        int at = Wire.begin(buf, notice ? 'N' : 'E');
        field(buf, 'S', e.severity());
        field(buf, 'C', e.sqlState());
        field(buf, 'M', e.message());
        if (e.detail() != null) {
            field(buf, 'D', e.detail());
        }
        buf.writeByte(0);
        Wire.end(buf, at);
        return buf;
    }

    private static void field(ByteBuf buf, char code, String value) {
        buf.writeByte(code);
        Wire.cstring(buf, value);
    }

    public static ByteBuf authentication(ByteBufAllocator alloc, int code, byte[] data) {
        ByteBuf buf = Wire.buffer(alloc);
        writeAuthentication(buf, code, data);
        return buf;
    }

    private static void writeAuthentication(ByteBuf buf, int code, byte[] data) {
        int at = Wire.begin(buf, 'R');
        buf.writeInt(code);
        buf.writeBytes(data);
        Wire.end(buf, at);
    }

    public static ByteBuf authenticationSasl(ByteBufAllocator alloc, List<String> mechanisms) {
        ByteBuf buf = Wire.buffer(alloc);
        int at = Wire.begin(buf, 'R');
        buf.writeInt(10);
        for (String m : mechanisms) {
            Wire.cstring(buf, m);
        }
        buf.writeByte(0);
        Wire.end(buf, at);
        return buf;
    }

    public static ByteBuf parameterStatus(ByteBufAllocator alloc, String name, String value) {
        ByteBuf buf = Wire.buffer(alloc);
        writeParameterStatus(buf, name, value);
        return buf;
    }

    static void writeParameterStatus(ByteBuf buf, String name, String value) {
        int at = Wire.begin(buf, 'S');
        Wire.cstring(buf, name);
        Wire.cstring(buf, value);
        Wire.end(buf, at);
    }

    public static ByteBuf backendKeyData(ByteBufAllocator alloc, int pid, int key) {
        ByteBuf buf = alloc.buffer(13);
        writeBackendKeyData(buf, pid, key);
        return buf;
    }

    private static void writeBackendKeyData(ByteBuf buf, int pid, int key) {
        int at = Wire.begin(buf, 'K');
        buf.writeInt(pid);
        buf.writeInt(key);
        Wire.end(buf, at);
    }

    public static ByteBuf readyForQuery(ByteBufAllocator alloc, TransactionStatus status) {
        ByteBuf buf = alloc.buffer(6);
        writeReadyForQuery(buf, status);
        return buf;
    }

    private static void writeReadyForQuery(ByteBuf buf, TransactionStatus status) {
        int at = Wire.begin(buf, 'Z');
        buf.writeByte(status.code());
        Wire.end(buf, at);
    }

    /** RowDescription in text format; columns as (name, type OID). */
    public static ByteBuf rowDescription(ByteBufAllocator alloc, List<String> names, List<Integer> typeOids) {
        ByteBuf buf = Wire.buffer(alloc);
        int at = Wire.begin(buf, 'T');
        buf.writeShort(names.size());
        for (int i = 0; i < names.size(); i++) {
            Wire.cstring(buf, names.get(i));
            buf.writeInt(0);        // table oid
            buf.writeShort(0);      // column number
            buf.writeInt(typeOids.get(i));
            buf.writeShort(typeSize(typeOids.get(i)));
            buf.writeInt(-1);       // type modifier
            buf.writeShort(0);      // text format
        }
        Wire.end(buf, at);
        return buf;
    }

    private static int typeSize(int oid) {
        return switch (oid) {
            case 23 -> 4;
            case 20 -> 8;
            default -> -1;
        };
    }

    /** DataRow of text values; null is SQL NULL. */
    public static ByteBuf dataRow(ByteBufAllocator alloc, List<String> values) {
        ByteBuf buf = Wire.buffer(alloc);
        int at = Wire.begin(buf, 'D');
        buf.writeShort(values.size());
        for (String v : values) {
            if (v == null) {
                buf.writeInt(-1);
            } else {
                byte[] b = Wire.utf8(v);
                buf.writeInt(b.length);
                buf.writeBytes(b);
            }
        }
        Wire.end(buf, at);
        return buf;
    }

    public static ByteBuf commandComplete(ByteBufAllocator alloc, String tag) {
        ByteBuf buf = Wire.buffer(alloc);
        int at = Wire.begin(buf, 'C');
        Wire.cstring(buf, tag);
        Wire.end(buf, at);
        return buf;
    }

    public static ByteBuf emptyQueryResponse(ByteBufAllocator alloc) {
        return bodiless(alloc, 'I');
    }

    public static ByteBuf parseComplete(ByteBufAllocator alloc) {
        return bodiless(alloc, '1');
    }

    public static ByteBuf bindComplete(ByteBufAllocator alloc) {
        return bodiless(alloc, '2');
    }

    private static ByteBuf bodiless(ByteBufAllocator alloc, char type) {
        ByteBuf buf = alloc.buffer(5);
        int at = Wire.begin(buf, type);
        Wire.end(buf, at);
        return buf;
    }

    /**
     * NegotiateProtocolVersion ('v'): the newest version Sluice speaks (3.0, written as PostgreSQL
     * 15 writes it, the whole version code) and the {@code _pq_.} options it did not recognise.
     */
    public static ByteBuf negotiateProtocolVersion(ByteBufAllocator alloc, List<String> unrecognized) {
        ByteBuf buf = Wire.buffer(alloc);
        int at = Wire.begin(buf, 'v');
        buf.writeInt(StartupPacket.PROTOCOL_3_0);
        buf.writeInt(unrecognized.size());
        for (String option : unrecognized) {
            Wire.cstring(buf, option);
        }
        Wire.end(buf, at);
        return buf;
    }

    /** 'N', shared: every plaintext login answers libpq's SSLRequest with it. */
    private static final ByteBuf REFUSE_ENCRYPTION = Unpooled.unreleasableBuffer(
            Unpooled.directBuffer(1).writeByte('N'));

    /** The single byte that refuses SSLRequest / GSSENCRequest; a view of one shared buffer. */
    public static ByteBuf refuseEncryption() {
        return REFUSE_ENCRYPTION.duplicate();
    }

    /** 'S': the answer to an SSLRequest that starts a TLS handshake. */
    public static ByteBuf acceptEncryption(ByteBufAllocator alloc) {
        return alloc.buffer(1).writeByte('S');
    }

    // ---- to servers -------------------------------------------------------------------

    /** SSLRequest: asks PostgreSQL for TLS before the startup packet. */
    public static ByteBuf sslRequest(ByteBufAllocator alloc) {
        return alloc.buffer(8).writeInt(8).writeInt(StartupPacket.SSL_REQUEST_CODE);
    }

    public static ByteBuf startup(ByteBufAllocator alloc, Map<String, String> params) {
        ByteBuf buf = Wire.buffer(alloc);
        int at = Wire.beginUntyped(buf);
        buf.writeInt(StartupPacket.PROTOCOL_3_0);
        params.forEach((k, v) -> {
            Wire.cstring(buf, k);
            Wire.cstring(buf, v);
        });
        buf.writeByte(0);
        Wire.end(buf, at);
        return buf;
    }

    public static ByteBuf cancelRequest(ByteBufAllocator alloc, int pid, int key) {
        ByteBuf buf = alloc.buffer(16);
        buf.writeInt(16);
        buf.writeInt(StartupPacket.CANCEL_REQUEST_CODE);
        buf.writeInt(pid);
        buf.writeInt(key);
        return buf;
    }

    public static ByteBuf password(ByteBufAllocator alloc, String password) {
        ByteBuf buf = Wire.buffer(alloc);
        int at = Wire.begin(buf, 'p');
        Wire.cstring(buf, password);
        Wire.end(buf, at);
        return buf;
    }

    public static ByteBuf saslInitialResponse(ByteBufAllocator alloc, String mechanism, String data) {
        ByteBuf buf = Wire.buffer(alloc);
        int at = Wire.begin(buf, 'p');
        Wire.cstring(buf, mechanism);
        byte[] b = Wire.utf8(data);
        buf.writeInt(b.length);
        buf.writeBytes(b);
        Wire.end(buf, at);
        return buf;
    }

    public static ByteBuf saslResponse(ByteBufAllocator alloc, String data) {
        ByteBuf buf = Wire.buffer(alloc);
        int at = Wire.begin(buf, 'p');
        buf.writeBytes(Wire.utf8(data));
        Wire.end(buf, at);
        return buf;
    }

    public static ByteBuf query(ByteBufAllocator alloc, String sql) {
        ByteBuf buf = Wire.buffer(alloc);
        int at = Wire.begin(buf, 'Q');
        Wire.cstring(buf, sql);
        Wire.end(buf, at);
        return buf;
    }

    /**
     * One statement in the extended protocol with text parameters and text results:
     * Parse, Bind, Describe (portal), Execute, Sync, as PgBouncer sends auth_query.
     */
    public static ByteBuf extendedQuery(ByteBufAllocator alloc, String sql, List<String> params) {
        ByteBuf buf = Wire.buffer(alloc);
        int at = Wire.begin(buf, 'P');
        Wire.cstring(buf, "");
        Wire.cstring(buf, sql);
        buf.writeShort(0); // parameter types: let the server infer them
        Wire.end(buf, at);
        at = Wire.begin(buf, 'B');
        Wire.cstring(buf, "");
        Wire.cstring(buf, "");
        buf.writeShort(0); // all parameters in text
        buf.writeShort(params.size());
        for (String p : params) {
            byte[] b = Wire.utf8(p);
            buf.writeInt(b.length);
            buf.writeBytes(b);
        }
        buf.writeShort(0); // all results in text
        Wire.end(buf, at);
        at = Wire.begin(buf, 'D');
        buf.writeByte('P');
        Wire.cstring(buf, "");
        Wire.end(buf, at);
        at = Wire.begin(buf, 'E');
        Wire.cstring(buf, "");
        buf.writeInt(0);
        Wire.end(buf, at);
        at = Wire.begin(buf, 'S');
        Wire.end(buf, at);
        return buf;
    }

    public static ByteBuf terminate(ByteBufAllocator alloc) {
        return bodiless(alloc, 'X');
    }

    /**
     * The end of a login: AuthenticationOk, the ParameterStatus values, BackendKeyData,
     * ReadyForQuery, after an accepted SCRAM exchange's AuthenticationSASLFinal ({@code
     * saslFinal}'s data; null for none). The values are the server's ({@code server}, may be null)
     * in their order, each replaced by the client's own where it has one, then the client's that
     * the server has not.
     */
    public static void greet(io.netty.channel.Channel ch, byte[] saslFinal, ParameterStatuses server,
            java.util.Map<String, String> client, int pid, int key) {
        // one buffer, one write: a message per write made a login cost a writev of ~16 pieces
        ByteBuf buf = ch.alloc().buffer(512);
        if (saslFinal != null) {
            writeAuthentication(buf, 12, saslFinal);
        }
        writeAuthentication(buf, 0, new byte[0]);
        if (server != null) {
            server.write(buf, client);
        }
        client.forEach((k, v) -> {
            if (server == null || !server.params().containsKey(k)) {
                writeParameterStatus(buf, k, v);
            }
        });
        writeBackendKeyData(buf, pid, key);
        writeReadyForQuery(buf, TransactionStatus.IDLE);
        ch.writeAndFlush(buf);
    }
}
