package io.sluice.proto;

import java.util.Map;

/** The untyped first packets a client may send before the message stream starts. */
public sealed interface StartupPacket {
    int PROTOCOL_3_0 = 196608;
    int SSL_REQUEST_CODE = 80877103;
    int GSSENC_REQUEST_CODE = 80877104;
    int CANCEL_REQUEST_CODE = 80877102;

    /**
     * StartupMessage of protocol 3.x; {@code parameters} keeps the client's order. A minor
     * version above 0 is answered with NegotiateProtocolVersion, as PostgreSQL does.
     */
    record Startup(int protocolVersion, Map<String, String> parameters) implements StartupPacket {
        public int minorVersion() {
            return protocolVersion & 0xffff;
        }

        public String user() {
            return parameters.get("user");
        }

        public String database() {
            String db = parameters.get("database");
            return db == null || db.isEmpty() ? user() : db;
        }
    }

    record SslRequest() implements StartupPacket {
    }

    record GssEncRequest() implements StartupPacket {
    }

    record CancelRequest(int processId, int secretKey) implements StartupPacket {
    }

    /** A CancelRequest whose key is not 8 bytes long. */
    record BadCancel() implements StartupPacket {
    }

    /** A typed message (its first byte not zero) sent where a startup packet belongs. */
    record Typed(byte type) implements StartupPacket {
    }

    /** A version code we do not speak (protocol 2, 4.x...); {@code length} is the packet's, header included. */
    record Unsupported(int length, int code) implements StartupPacket {
    }
}
