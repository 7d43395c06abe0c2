package io.sluice.it;

import io.sluice.testkit.ProcessRunner;
import io.sluice.tls.PemFiles;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** TLS clients for the ITs: psql with sslmode and files, and JDK TLS over a raw socket (SSLRequest or direct). */
final class TlsClients {
    static final byte[] SSL_REQUEST = ByteBuffer.allocate(8).putInt(8).putInt(80877103).array();

    private TlsClients() {
    }

    /**
     * psql over TCP; {@code home} becomes HOME so libpq finds no default client certificate.
     * {@code cert}/{@code key} may be null. Each SQL is one {@code -c}.
     */
    static ProcessRunner psql(int port, String db, String user, String password, String sslmode, Path rootCert,
                              Path cert, Path key, Path home, String... sql) {
        List<String> cmd = new ArrayList<>(List.of("psql", "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1",
                "-h", "127.0.0.1", "-p", Integer.toString(port), "-U", user, "-d", db));
        for (String s : sql) {
            cmd.add("-c");
            cmd.add(s);
        }
        ProcessRunner r = ProcessRunner.of(cmd).env("PGPASSWORD", password).env("PGSSLMODE", sslmode)
                .env("PGCONNECT_TIMEOUT", "10").env("HOME", home.toString()).env("PGOPTIONS", null)
                .env("PGSERVICE", null);
        r.env("PGSSLROOTCERT", rootCert == null ? null : rootCert.toString());
        r.env("PGSSLCERT", cert == null ? null : cert.toString());
        r.env("PGSSLKEY", key == null ? null : key.toString());
        return r;
    }

    /** A JDK TLS context trusting {@code ca}, presenting the client certificate when {@code key} is given. */
    static SSLContext context(Path ca, Path cert, Path key) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        int i = 0;
        for (X509Certificate c : PemFiles.certificates("ca", ca.toString())) {
            trust.setCertificateEntry("ca" + i++, c);
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        KeyManagerFactory kmf = null;
        if (key != null) {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setKeyEntry("me", PemFiles.privateKey("key", key.toString()), new char[0],
                    PemFiles.certificates("cert", cert.toString()).toArray(new X509Certificate[0]));
            kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, new char[0]);
        }
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf == null ? null : new KeyManager[] {new AlwaysPresent((X509ExtendedKeyManager) kmf.getKeyManagers()[0])},
                tmf.getTrustManagers(), null);
        return ctx;
    }

    /**
     * Presents our certificate whatever CAs the server names: the JDK would otherwise keep a
     * certificate of a CA the server did not list to itself, and the server would never see it.
     */
    private static final class AlwaysPresent extends X509ExtendedKeyManager {
        private final X509ExtendedKeyManager km;

        AlwaysPresent(X509ExtendedKeyManager km) {
            this.km = km;
        }

        @Override
        public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
            return "me";
        }

        @Override
        public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
            return "me";
        }

        @Override
        public String[] getClientAliases(String keyType, Principal[] issuers) {
            return new String[] {"me"};
        }

        @Override
        public String[] getServerAliases(String keyType, Principal[] issuers) {
            return km.getServerAliases(keyType, issuers);
        }

        @Override
        public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
            return km.chooseServerAlias(keyType, issuers, socket);
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias) {
            return km.getCertificateChain(alias);
        }

        @Override
        public PrivateKey getPrivateKey(String alias) {
            return km.getPrivateKey(alias);
        }
    }

    /** SSLRequest; on 'S' a JDK TLS handshake offering {@code alpn} (none if empty). Fails on any other answer. */
    static SSLSocket afterSslRequest(int port, SSLContext ctx, String... alpn) throws IOException {
        Socket plain = new Socket("127.0.0.1", port);
        plain.setSoTimeout(15_000);
        plain.getOutputStream().write(SSL_REQUEST);
        int answer = new DataInputStream(plain.getInputStream()).readUnsignedByte();
        if (answer != 'S') {
            plain.close();
            throw new IOException("SSLRequest answered '" + (char) answer + "'");
        }
        return handshake(plain, port, ctx, alpn);
    }

    /** PostgreSQL 17's direct TLS: the ClientHello is the first thing sent. */
    static SSLSocket direct(int port, SSLContext ctx, String... alpn) throws IOException {
        Socket plain = new Socket("127.0.0.1", port);
        plain.setSoTimeout(15_000);
        return handshake(plain, port, ctx, alpn);
    }

    private static SSLSocket handshake(Socket plain, int port, SSLContext ctx, String... alpn) throws IOException {
        SSLSocket s = (SSLSocket) ctx.getSocketFactory().createSocket(plain, "127.0.0.1", port, true);
        SSLParameters p = s.getSSLParameters();
        if (alpn.length > 0) {
            p.setApplicationProtocols(alpn);
        }
        s.setSSLParameters(p);
        s.startHandshake();
        return s;
    }

    /** Logs in over an established socket; returns the client, logged in (or throws with the error fields). */
    static RawClient login(Socket s, String db, String user) throws IOException {
        RawClient c = new RawClient(s);
        c.send(RawClient.startup(Map.of("user", user, "database", db)));
        Map<Character, String> err = c.readUntilReadyOrError();
        if (err != null) {
            c.close();
            throw new IOException("login failed: " + err);
        }
        return c;
    }
}
