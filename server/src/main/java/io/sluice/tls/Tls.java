package io.sluice.tls;

import io.netty.channel.ChannelHandler;
import io.sluice.config.Settings;
import io.sluice.log.Log;

/**
 * The TLS configuration Sluice runs with: one {@link ClientTls} and one {@link ServerTls}.
 * {@link #reload} builds both anew from the files (so a rotated certificate at the same path
 * is picked up) and swaps them for new connections only; if either side fails, both old ones
 * stay, as PgBouncer keeps its old TLS setup. Read from the event loop and the console.
 */
public final class Tls {
    private volatile ClientTls client;
    private volatile ServerTls server;

    private Tls(ClientTls client, ServerTls server) {
        this.client = client;
        this.server = server;
    }

    /** The outcome of a RELOAD or SET of TLS keys. */
    public record Reload(boolean applied, boolean serverSettingsChanged) {
    }

    /** At start: a failure is fatal there (PgBouncer exits too). Logs a warning per value the provider cannot honour. */
    public static Tls load(Settings s, String authType) throws TlsSetupException {
        ClientTls c = TlsContexts.client(TlsSettings.client(s), "cert".equals(authType));
        ServerTls sv = TlsContexts.server(TlsSettings.server(s));
        logWarnings(c, sv);
        return new Tls(c, sv);
    }

    /**
     * Rebuilds both sides; on failure logs the error and keeps the old pair. Server
     * connections are recycled by the caller only when {@code server_tls_*} values changed
     * (PgBouncer >= 1.24): new file contents at the same paths reach new connections only.
     */
    public Reload reload(Settings s, String authType) {
        ClientTls c;
        ServerTls sv;
        try {
            c = TlsContexts.client(TlsSettings.client(s), "cert".equals(authType));
            sv = TlsContexts.server(TlsSettings.server(s));
        } catch (TlsSetupException e) {
            Log.global().error(e.getMessage());
            Log.global().error("TLS settings could not be applied, still using old configuration");
            return new Reload(false, false);
        }
        // a RELOAD or SET that leaves a side's values alone does not repeat its warnings
        if (!c.settings().equals(client.settings())) {
            c.warnings().forEach(Log.global()::warning);
        }
        boolean serverChanged = !sv.settings().equals(server.settings());
        if (serverChanged) {
            sv.warnings().forEach(Log.global()::warning);
        }
        client = c;
        server = sv;
        return new Reload(true, serverChanged);
    }

    public ClientTls client() {
        return client;
    }

    public ServerTls server() {
        return server;
    }

    /**
     * Loads the TLS provider on a thread of its own while the process starts: JDK TLS takes
     * 0.3-0.4 s to load, about a quarter of a start, and the server side's default {@code
     * server_tls_sslmode = prefer} needs it before the listeners open. Done beside the config
     * parsing instead of after it, the start is that much shorter on two cores or more.
     */
    public static void loadProviderInBackground() {
        Thread t = new Thread(TlsContexts::provider, "sluice-tls-load");
        t.setDaemon(true);
        t.start();
    }

    /** "BoringSSL" or "JDK TLS". */
    public static String providerName() {
        return TlsContexts.provider().name();
    }

    /**
     * For the head of a TCP client's pipeline: a first byte 0x16 starts TLS at once (direct
     * TLS) while client TLS is on; anything else goes on to the startup packet decoder.
     */
    public ChannelHandler directTlsDetector() {
        return new HandshakeStart(this::client, false);
    }

    private static void logWarnings(ClientTls c, ServerTls s) {
        c.warnings().forEach(Log.global()::warning);
        s.warnings().forEach(Log.global()::warning);
    }
}
