package io.sluice.tls;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.OpenSslContextOption;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Builds Netty SslContexts from one side's settings, with PgBouncer's setup checks and words.
 * BoringSSL (netty-tcnative) when it loads, JDK TLS otherwise.
 */
final class TlsContexts {
    /** ALPN protocol of PostgreSQL 17's direct TLS. */
    static final String ALPN = "postgresql";

    private TlsContexts() {
    }

    /** The provider in use for the whole process. */
    static TlsProvider provider() {
        return Holder.PROVIDER;
    }

    private static final class Holder {
        static final TlsProvider PROVIDER = detect();

        private static TlsProvider detect() {
            SslProvider kind = OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
            try {
                // only asked for its protocols and ciphers: a trust manager of its own spares
                // loading the JDK's CA store, which nothing may need
                SslContext probe = SslContextBuilder.forClient().sslProvider(kind)
                        .trustManager(InsecureTrustManagerFactory.INSTANCE).build();
                SSLEngine engine = probe.newEngine(ByteBufAllocator.DEFAULT);
                // JDK TLS: protocols it enables by default (jdk.tls.disabledAlgorithms removes 1.0/1.1);
                // BoringSSL: every protocol it supports
                List<String> protocols = Arrays.asList(kind == SslProvider.JDK
                        ? engine.getEnabledProtocols() : engine.getSupportedProtocols());
                List<String> ciphers = List.copyOf(new LinkedHashSet<>(Arrays.stream(engine.getSupportedCipherSuites())
                        .filter(c -> !c.startsWith("SSL_") && !c.contains("_EMPTY_")).toList()));
                return new TlsProvider(kind == SslProvider.OPENSSL ? "BoringSSL" : "JDK TLS",
                        kind == SslProvider.OPENSSL, java.util.Set.copyOf(protocols), ciphers);
            } catch (SSLException e) {
                throw new IllegalStateException("no TLS provider: " + e.getMessage(), e);
            }
        }
    }

    private static SslProvider sslProvider() {
        return provider().boringSsl() ? SslProvider.OPENSSL : SslProvider.JDK;
    }

    /** The accepting side; {@code certAuth}: auth_type = cert, whose needs PgBouncer checks here. */
    static ClientTls client(TlsSettings s, boolean certAuth) throws TlsSetupException {
        if (s.mode().enabled() && (!TlsSettings.set(s.keyFile()) || !TlsSettings.set(s.certFile()))) {
            throw new TlsSetupException("To allow TLS connections from clients, client_tls_key_file and "
                    + "client_tls_cert_file must be set.");
        }
        if (certAuth) {
            if (s.mode() != SslMode.VERIFY_FULL) {
                throw new TlsSetupException("auth_type=cert requires client_tls_sslmode=SSLMODE_VERIFY_FULL");
            }
            if (!TlsSettings.set(s.caFile())) {
                throw new TlsSetupException("auth_type=cert requires client_tls_ca_file");
            }
        } else if (s.mode() == SslMode.VERIFY_FULL && !TlsSettings.set(s.caFile())) {
            throw new TlsSetupException("client_tls_sslmode requires client_tls_ca_file");
        }
        if (!s.mode().enabled()) {
            return new ClientTls(s, null, List.of());
        }
        ProviderChoices choices = ProviderChoices.resolve(s, provider());
        PrivateKey key = PemFiles.privateKey(s.key("key_file"), s.keyFile());
        List<X509Certificate> chain = PemFiles.certificates(s.key("cert_file"), s.certFile());
        PemFiles.checkPair(s.key("key_file"), s.key("cert_file"), key, chain.get(0));
        SslContextBuilder b = SslContextBuilder.forServer(key, chain);
        if (TlsSettings.set(s.caFile())) {
            b.trustManager(PemFiles.certificates(s.key("ca_file"), s.caFile()));
        }
        // verify-ca/verify-full demand a client certificate; otherwise one is asked for only
        // when there is a CA to check it against (PgBouncer's "optional" verification)
        b.clientAuth(s.mode().verifiesPeer() ? ClientAuth.REQUIRE
                : TlsSettings.set(s.caFile()) ? ClientAuth.OPTIONAL : ClientAuth.NONE);
        // "postgresql" is chosen when offered; a client offering only others is refused earlier, by AlpnGate
        b.applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT, ALPN));
        return new ClientTls(s, build(b, choices, s), choices.warnings());
    }

    /** The connecting side, towards PostgreSQL. */
    static ServerTls server(TlsSettings s) throws TlsSetupException {
        if (!s.mode().enabled()) {
            return new ServerTls(s, null, List.of());
        }
        ProviderChoices choices = ProviderChoices.resolve(s, provider());
        SslContextBuilder b = SslContextBuilder.forClient();
        if (!s.mode().verifiesPeer()) {
            b.trustManager(InsecureTrustManagerFactory.INSTANCE); // allow/prefer/require: encryption only
        } else if (TlsSettings.set(s.caFile())) {
            b.trustManager(PemFiles.certificates(s.key("ca_file"), s.caFile()));
        } // else: the JDK's default trust store, as OpenSSL's system default for PgBouncer
        b.endpointIdentificationAlgorithm(s.mode() == SslMode.VERIFY_FULL ? "HTTPS" : null);
        boolean hasKey = TlsSettings.set(s.keyFile());
        if (hasKey != TlsSettings.set(s.certFile())) {
            throw new TlsSetupException("invalid " + s.key(hasKey ? "cert_file" : "key_file")
                    + ": a client certificate needs both server_tls_key_file and server_tls_cert_file");
        }
        if (hasKey) {
            PrivateKey key = PemFiles.privateKey(s.key("key_file"), s.keyFile());
            List<X509Certificate> chain = PemFiles.certificates(s.key("cert_file"), s.certFile());
            PemFiles.checkPair(s.key("key_file"), s.key("cert_file"), key, chain.get(0));
            b.keyManager(key, chain);
        }
        return new ServerTls(s, build(b, choices, s), choices.warnings());
    }

    private static SslContext build(SslContextBuilder b, ProviderChoices choices, TlsSettings s)
            throws TlsSetupException {
        b.sslProvider(sslProvider()).protocols(choices.protocols());
        if (choices.ciphers() != null) {
            b.ciphers(choices.ciphers());
        }
        if (choices.groups() != null) {
            b.option(OpenSslContextOption.GROUPS, choices.groups().toArray(new String[0]));
        }
        try {
            return b.build();
        } catch (SSLException | RuntimeException e) {
            throw new TlsSetupException("TLS setup failed (" + s.prefix() + "_*): " + e.getMessage(), e);
        }
    }
}
