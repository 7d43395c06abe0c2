package io.sluice.proto;

import java.util.Map;

/** Server messages the pooler reads; all others are relayed as opaque frames. */
public sealed interface BackendMessage {
    /** 'R': authentication request; {@code code} per protocol (0 ok, 3 cleartext, 5 md5, 10/11/12 SASL). */
    record Authentication(int code, byte[] data) implements BackendMessage {
        public static final int OK = 0;
        public static final int CLEARTEXT = 3;
        public static final int MD5 = 5;
        public static final int SASL = 10;
        public static final int SASL_CONTINUE = 11;
        public static final int SASL_FINAL = 12;
    }

    record BackendKeyData(int processId, int secretKey) implements BackendMessage {
    }

    record ParameterStatus(String name, String value) implements BackendMessage {
    }

    record ReadyForQuery(TransactionStatus status) implements BackendMessage {
    }

    /** 'E' or 'N'; fields keyed by their protocol code ('S', 'V', 'C', 'M', 'D'...). */
    record ErrorOrNotice(boolean error, Map<Character, String> fields) implements BackendMessage {
        public String sqlState() {
            return fields.getOrDefault('C', "");
        }

        public String message() {
            return fields.getOrDefault('M', "");
        }

        /** The severity as sent (possibly localized), as PgBouncer logs a server's error. */
        public String severity() {
            return fields.getOrDefault('S', fields.getOrDefault('V', "ERROR"));
        }

        public PgError toPgError() {
            String severity = fields.getOrDefault('V', fields.getOrDefault('S', "ERROR"));
            return new PgError(severity, sqlState(), message(), fields.get('D'));
        }
    }
}
