package io.sluice.proto;

/** ReadyForQuery status byte. {@link #UNKNOWN} keeps us forward compatible instead of throwing. */
public enum TransactionStatus {
    IDLE('I'), IN_TRANSACTION('T'), FAILED('E'), UNKNOWN('?');

    private final char code;

    TransactionStatus(char code) {
        this.code = code;
    }

    public char code() {
        return code;
    }

    public boolean inTransaction() {
        return this == IN_TRANSACTION || this == FAILED;
    }

    public static TransactionStatus of(int b) {
        return switch (b) {
            case 'I' -> IDLE;
            case 'T' -> IN_TRANSACTION;
            case 'E' -> FAILED;
            default -> UNKNOWN;
        };
    }
}
