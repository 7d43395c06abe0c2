package io.sluice.proto;

import java.util.Map;

/** The untyped first packets a client may send before the message stream starts. */
public sealed interface StartupPacket {
    int PROTOCOL_3_0 = 196608;
    int SSL_REQUEST_CODE = 80877103;
    int GSSENC_REQUEST_CODE = 80877104;
    int CANCEL_REQUEST_CODE = 80877102;

    /** StartupMessage; {@code parameters} keeps the client's order. */
    record Startup(int protocolVersion, Map<String, String> parameters) implements StartupPacket {
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

    /** A version code we do not speak (protocol 2, 4.x...). */
    record Unsupported(int code) implements StartupPacket {
    }
}
