package io.sluice.tls;

/** Words for a failed handshake: providers wrap the reason (BoringSSL's "General OpenSslEngine problem"). */
public final class HandshakeErrors {
    private HandshakeErrors() {
    }

    /** The innermost cause's message, e.g. {@code No subject alternative names matching IP address 127.0.0.1 found}. */
    public static String describe(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String m = root.getMessage();
        return m == null || m.isBlank() ? root.getClass().getSimpleName() : m;
    }
}
