package io.sluice.tls;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** AlpnGate's ClientHello reading against the JDK's real ClientHellos, and CertificateNames' libtls rule. */
class AlpnAndNamesTest {
    @TempDir
    Path dir;

    /** The ClientHello body (after the record and handshake headers), as SslClientHelloHandler hands it over. */
    static ByteBuf helloBody(String... alpn) throws Exception {
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, null, null);
        SSLEngine e = ctx.createSSLEngine("localhost", 5432);
        e.setUseClientMode(true);
        if (alpn.length > 0) {
            SSLParameters p = e.getSSLParameters();
            p.setApplicationProtocols(alpn);
            e.setSSLParameters(p);
        }
        ByteBuffer out = ByteBuffer.allocate(e.getSession().getPacketBufferSize());
        e.wrap(ByteBuffer.allocate(0), out);
        out.flip();
        ByteBuf record = Unpooled.wrappedBuffer(out);
        return record.slice(5 + 4, record.readableBytes() - 9);
    }

    @Test
    void alpnRuleOnRealClientHellos() throws Exception {
        assertThat(AlpnGate.offersPostgresqlOrNothing(helloBody())).isTrue();
        assertThat(AlpnGate.offersPostgresqlOrNothing(helloBody("postgresql"))).isTrue();
        assertThat(AlpnGate.offersPostgresqlOrNothing(helloBody("http/1.1", "postgresql"))).isTrue();
        assertThat(AlpnGate.offersPostgresqlOrNothing(helloBody("http/1.1"))).isFalse();
        assertThat(AlpnGate.offersPostgresqlOrNothing(helloBody("postgres"))).isFalse();
    }

    @Test
    void truncatedHelloCountsAsNoAlpnForTheProviderToRefuse() throws Exception {
        ByteBuf full = helloBody("http/1.1");
        assertThat(AlpnGate.offersPostgresqlOrNothing(full.slice(0, 20))).isTrue();
        assertThat(AlpnGate.offersPostgresqlOrNothing(full.slice(0, 60))).isTrue();
    }

    @Test
    void certificateNamesUseAltNamesWhenPresentElseTheCn() {
        TestPki pki = TestPki.create(dir, "names");
        Instant now = Instant.now();
        var cnOnly = pki.client("cn", "Alice", TestPki.KeyForm.EC_SEC1).certificate();
        assertThat(CertificateNames.commonName(cnOnly)).isEqualTo("Alice");
        assertThat(CertificateNames.names(cnOnly, "alice")).isTrue(); // libtls compares ignoring case
        assertThat(CertificateNames.names(cnOnly, "bob")).isFalse();
        var withSan = pki.issue("san", TestPki.KeyForm.EC_SEC1, "alice", now.minus(Duration.ofDays(1)),
                now.plus(Duration.ofDays(1)), List.of("DNS:bob"), null).certificate();
        assertThat(CertificateNames.names(withSan, "bob")).isTrue();
        assertThat(CertificateNames.names(withSan, "alice")).as("alt names replace the CN").isFalse();
        var wildcard = pki.issue("wild", TestPki.KeyForm.EC_SEC1, "*", now.minus(Duration.ofDays(1)),
                now.plus(Duration.ofDays(1)), List.of(), null).certificate();
        assertThat(CertificateNames.names(wildcard, "anyone")).isFalse();
    }
}
