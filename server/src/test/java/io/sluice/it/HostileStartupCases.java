package io.sluice.it;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static io.sluice.it.Hostile.CLOSE;
import static io.sluice.it.Hostile.Phase.FRESH;
import static io.sluice.it.Hostile.READY;
import static io.sluice.it.Hostile.SILENT;
import static io.sluice.it.Hostile.cat;
import static io.sluice.it.Hostile.cstr;
import static io.sluice.it.Hostile.errorClose;
import static io.sluice.it.Hostile.i32;
import static io.sluice.it.Hostile.msg;
import static io.sluice.it.Hostile.of;
import static io.sluice.it.Hostile.packet;
import static io.sluice.it.Hostile.startup;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The catalogue's first part: what a client sends before it is logged in (the startup packet,
 * SSLRequest and GSSENCRequest, CancelRequest), sent whole or slowly. PgBouncer 1.18 gives the
 * same words for these except where a case says otherwise.
 */
final class HostileStartupCases {
    private HostileStartupCases() {
    }

    static final int SSL = 80877103;
    static final int GSS = 80877104;
    static final int CANCEL = 80877102;
    static final Map<String, String> LOGIN = Map.of("user", "plain", "database", "hostile");

    static List<Hostile.Case> cases() {
        List<Hostile.Case> cs = new ArrayList<>();
        // lengths
        cs.add(of("startup length 0", FRESH, cat(i32(0), i32(0x30000)), errorClose("08P01", "bad packet header")));
        // PgBouncer judges a startup header once its 8 bytes are in
        cs.add(of("half a startup header, then silence", FRESH, i32(8), SILENT));
        cs.add(of("startup length 7", FRESH, cat(i32(7), i32(0x30000)), errorClose("08P01", "bad packet header")));
        cs.add(of("startup length -1", FRESH, cat(i32(-1), i32(0x30000)), errorClose("08P01", "bad packet header")));
        cs.add(of("startup length 2^31-1", FRESH, cat(i32(Integer.MAX_VALUE), i32(0x30000)),
                errorClose("08P01", "bad packet header")));
        cs.add(of("startup length above 16 bits", FRESH, cat(i32(70_000), i32(0x30000)),
                errorClose("08P01", "bad packet header")));
        cs.add(of("startup larger than pkt_buf", FRESH, cat(i32(5000), i32(0x30000)),
                errorClose("08P01", "client sent partial pkt in startup phase")));
        cs.add(of("startup length longer than what is sent, then silence", FRESH,
                cat(i32(100), i32(0x30000), cstr("user"), cstr("plain")), SILENT));
        cs.add(of("random bytes", FRESH, randomBytes(7, 200), errorClose("08P01", "client sent partial pkt in startup phase")));
        // a type byte where the startup packet belongs, as PgBouncer answers it
        cs.add(of("a query instead of the startup packet", FRESH, msg('Q', cstr("select 1")), CLOSE));
        cs.add(of("a password before the startup packet", FRESH, msg('p', cstr("secret")),
                errorClose("08P01", "client password pkt before startup packet")));
        // contents
        cs.add(of("no user", FRESH, startup(Map.of("database", "hostile")),
                errorClose("08P01", "no username supplied")));
        cs.add(of("empty user", FRESH, startup(Map.of("user", "", "database", "hostile")),
                errorClose("08P01", "no username supplied")));
        // as PgBouncer: reading stops at a string without its terminator, the pairs before it count
        cs.add(of("unterminated parameter name", FRESH, packet(0x30000, "user".getBytes()),
                errorClose("08P01", "no username supplied")));
        cs.add(of("parameter name without value", FRESH, packet(0x30000, cstr("user")),
                errorClose("08P01", "no username supplied")));
        cs.add(of("unterminated value", FRESH, packet(0x30000, cstr("user"), "plain".getBytes()),
                errorClose("08P01", "no username supplied")));
        cs.add(of("unterminated name after the user", FRESH, packet(0x30000, cstr("user"), cstr("plain"),
                cstr("database"), cstr("hostile"), "applicat".getBytes()), READY));
        cs.add(of("no final terminator", FRESH, packet(0x30000, cstr("user"), cstr("plain"), cstr("database"),
                cstr("hostile")), READY));
        cs.add(of("400 unknown parameters", FRESH, startup(manyParams(400)),
                errorClose("08P01", "unsupported startup parameter: p0")));
        cs.add(of("unknown database", FRESH, startup(Map.of("user", "plain", "database", "nosuchdb")),
                errorClose("08P01", "no such database: nosuchdb")));
        cs.add(of("options that are not -c", FRESH, startup(Map.of("user", "plain", "database", "hostile",
                "options", "-x")), errorClose("08P01", "unsupported options startup parameter")));
        cs.add(of("NUL-only body", FRESH, packet(0x30000, new byte[] {0}),
                errorClose("08P01", "no username supplied")));
        // versions
        cs.add(of("protocol 1.0", FRESH, packet(0x10000, cstr("user"), cstr("plain"), new byte[1]),
                errorClose("08P01", "bad packet header: '0000001400010000'")));
        cs.add(of("protocol 2.0", FRESH, packet(0x20000, cstr("user"), cstr("plain"), new byte[1]),
                errorClose("08P01", "old V2 protocol not supported")));
        cs.add(of("protocol 9999.9999", FRESH, packet((9999 << 16) | 9999, new byte[8]),
                errorClose("08P01", "bad packet header: '00000010270f270f'")));
        // SSLRequest and GSSENCRequest in odd places
        cs.add(new Hostile.Case("SSLRequest twice, then login", FRESH, c -> {
            for (int i = 0; i < 2; i++) {
                c.send(packet(SSL));
                assertThat(c.readRawByte()).isEqualTo('N');
            }
            c.send(startup(LOGIN));
        }, READY));
        cs.add(new Hostile.Case("GSSENCRequest then SSLRequest, then login", FRESH, c -> {
            c.send(packet(GSS));
            assertThat(c.readRawByte()).isEqualTo('N');
            c.send(packet(SSL));
            assertThat(c.readRawByte()).isEqualTo('N');
            c.send(startup(LOGIN));
        }, READY));
        // bytes sent before the answer could have been read: refused with TLS off too (CVE-2021-23214)
        cs.add(of("SSLRequest with the startup packet in the same write", FRESH, cat(packet(SSL), startup(LOGIN)),
                errorClose("08P01", "received unencrypted data after SSL request")));
        cs.add(of("GSSENCRequest with the startup packet in the same write", FRESH, cat(packet(GSS), startup(LOGIN)),
                errorClose("08P01", "received unencrypted data after GSSAPI encryption request")));
        cs.add(new Hostile.Case("SSLRequest with a body", FRESH, c -> {
            c.send(packet(SSL, new byte[8]));
            assertThat(c.readRawByte()).isEqualTo('N');
        }, SILENT));
        cs.add(new Hostile.Case("SSLRequest after the startup packet", FRESH, c -> {
            c.send(startup(LOGIN));
            assertThat(c.readUntilReadyOrError()).isNull();
            c.send(packet(SSL)); // read as a message: type 0x00, refused on its header
        }, errorClose("08P01", "unknown pkt")));
        // cancel requests
        cs.add(of("cancel request, short key", FRESH, packet(CANCEL, new byte[4]), CLOSE));
        cs.add(of("cancel request, long key", FRESH, packet(CANCEL, new byte[12]), CLOSE));
        cs.add(of("cancel request, unknown key", FRESH, packet(CANCEL, i32(12345), i32(67890)), CLOSE));
        cs.add(of("cancel request then more bytes", FRESH, cat(packet(CANCEL, i32(1), i32(2)), startup(LOGIN)), CLOSE));
        cs.add(new Hostile.Case("200 cancel requests with random keys", FRESH, HostileStartupCases::cancelFlood,
                CLOSE));
        // slow senders
        cs.add(new Hostile.Case("startup packet a byte every 10 ms", FRESH, c -> drip(c, startup(LOGIN), 10), READY));
        cs.add(new Hostile.Case("startup packet a byte every 150 ms", FRESH, c -> drip(c, startup(LOGIN), 150),
                errorClose("08P01", "client_login_timeout")));
        cs.add(of("connect and say nothing", FRESH, new byte[0], errorClose("08P01", "client_login_timeout")));
        return cs;
    }

    static byte[] randomBytes(long seed, int n) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        b[0] = 0x40; // a type byte, then a length above pkt_buf and below max_packet_size
        b[1] = 0x00;
        b[2] = 0x01;
        return b;
    }

    private static Map<String, String> manyParams(int n) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("user", "plain");
        for (int i = 0; i < n; i++) {
            m.put("p" + i, "v");
        }
        return m;
    }

    /** Each on its own connection, like a guessing attacker; the case's own one is the last. */
    private static void cancelFlood(RawClient last) throws IOException {
        Random r = new Random(99);
        for (int i = 0; i < 199; i++) {
            try (RawClient c = new RawClient(last.socket.getPort())) {
                c.send(packet(CANCEL, i32(r.nextInt()), i32(r.nextInt())));
                assertThat(c.readRawByte()).as("a guess learns nothing").isEqualTo(-1);
            }
        }
        last.send(packet(CANCEL, i32(r.nextInt()), i32(r.nextInt())));
    }

    /** Sends {@code bytes} one at a time, {@code millis} apart: a deliberate pace, not a wait for a condition. */
    private static void drip(RawClient c, byte[] bytes, long millis) throws Exception {
        for (int i = 0; i < bytes.length; i++) {
            try {
                c.send(Arrays.copyOfRange(bytes, i, i + 1));
            } catch (IOException closed) {
                return; // refused part-way: the outcome says how
            }
            Thread.sleep(millis);
        }
    }
}
