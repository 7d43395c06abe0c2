package io.sluice.proto.codec;

import io.sluice.proto.Frame;
import io.sluice.proto.ProtocolException;

/**
 * Runs on one whole frame every reader the pooler may apply to a message of its type, as a
 * client's or a server's; a {@link ProtocolException} is the declared refusal and is swallowed,
 * anything else escapes (for the fuzz tests).
 */
final class MessageDecoding {
    private MessageDecoding() {
    }

    static void interpret(Frame f) {
        attempt(() -> BackendDecoding.decode(f));
        switch (f.type()) {
            case 'p' -> {
                attempt(() -> FrontendDecoding.password(f));
                attempt(() -> FrontendDecoding.saslInitial(f));
                attempt(() -> FrontendDecoding.saslResponse(f));
            }
            case 'Q' -> attempt(() -> FrontendDecoding.query(f));
            case 'P' -> {
                attempt(() -> ExtendedCodec.brokenNamedParse(f));
                attempt(() -> twoStrings(f));
            }
            case 'B', 'D' -> attempt(() -> twoStrings(f));
            case 'E', 'C' -> attempt(() -> ExtendedCodec.firstString(f, (char) f.type(), null));
            case 'Z' -> attempt(() -> BackendDecoding.readyStatus(f));
            default -> { }
        }
        if (f.type() == 'D') {
            attempt(() -> BackendDecoding.columnCount(f));
            attempt(() -> BackendDecoding.dataRows(f));
        }
    }

    /** The first two C strings of a body, read in place as the statement router reads them. */
    private static void twoStrings(Frame f) {
        String first = ExtendedCodec.firstString(f, (char) f.type(), null);
        ExtendedCodec.stringAt(f, f.bodyStart() + first.length() + 1, (char) f.type(), null);
    }

    private static void attempt(Runnable r) {
        try {
            r.run();
        } catch (ProtocolException refused) {
            // the declared answer to a malformed message
        }
    }
}
