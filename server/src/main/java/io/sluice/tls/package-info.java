/**
 * TLS on both sides, with PgBouncer's settings: {@code client_tls_*} for the clients Sluice
 * accepts, {@code server_tls_*} for its connections to PostgreSQL.
 *
 * <p>Pure parts: {@link io.sluice.tls.SslMode} (the sslmode rules), {@link io.sluice.tls.TlsSettings}
 * (one side's keys), {@link io.sluice.tls.PemFiles} (keys and certificates in every PEM form
 * PgBouncer reads, through BouncyCastle), {@link io.sluice.tls.ProviderChoices} (what the TLS
 * provider can honour of protocols, cipher lists and curves, and the one-line warnings for the
 * rest), {@link io.sluice.tls.CertificateNames}, {@link io.sluice.tls.ChannelBinding} (SCRAM's
 * tls-server-end-point hash of a certificate).
 *
 * <p>Netty parts, kept to SslContext building and the handlers of a handshake's first bytes:
 * {@link io.sluice.tls.TlsContexts} builds both sides' contexts (BoringSSL through
 * netty-tcnative when it loads, JDK TLS otherwise), {@link io.sluice.tls.ClientTls} and
 * {@link io.sluice.tls.ServerTls} are one applied configuration each, {@link io.sluice.tls.Tls}
 * holds the current pair and swaps it on RELOAD (new connections only; a failed reload keeps the
 * old pair), {@link io.sluice.tls.HandshakeStart} and {@link io.sluice.tls.AlpnGate} start a
 * client's handshake (after SSLRequest or directly on a first byte 0x16), and
 * {@link io.sluice.tls.TlsInfo} describes an established session for SHOW and the log.
 *
 * <p>May use {@code config}, {@code log}, {@code util}. Session and backend use this package;
 * it never uses them, so it knows nothing of the PostgreSQL protocol beyond the first byte.
 */
package io.sluice.tls;
