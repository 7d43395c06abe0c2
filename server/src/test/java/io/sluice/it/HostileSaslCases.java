package io.sluice.it;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import static io.sluice.it.Hostile.Phase.SASL;
import static io.sluice.it.Hostile.CLOSE;
import static io.sluice.it.Hostile.SILENT;
import static io.sluice.it.Hostile.cat;
import static io.sluice.it.Hostile.cstr;
import static io.sluice.it.Hostile.errorClose;
import static io.sluice.it.Hostile.header;
import static io.sluice.it.Hostile.i32;
import static io.sluice.it.Hostile.msg;
import static io.sluice.it.Hostile.of;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The catalogue's third part: SCRAM-SHA-256 at every step, as an unauthenticated client can
 * break it. Most refusals are PgBouncer's "SASL authentication failed" (28P01 for a wrong proof,
 * which drivers report as a bad password); a mechanism or channel binding refused has
 * PostgreSQL's own words. PgBouncer 1.18 crashes on the SASLInitialResponse
 * whose data length is -1; Sluice answers it like any other malformed message.
 */
final class HostileSaslCases {
    private HostileSaslCases() {
    }

    private static final String MECH = "SCRAM-SHA-256";
    private static final String FAILED = "SASL authentication failed";
    private static final String INVALID = "client selected an invalid SASL authentication mechanism";

    static byte[] initial(String mechanism, String data) {
        byte[] d = data.getBytes(StandardCharsets.UTF_8);
        return msg('p', cstr(mechanism), i32(d.length), d);
    }

    /** Sends a proper client-first and returns the server's combined nonce. */
    private static String first(RawClient c) throws Exception {
        c.send(initial(MECH, "n,,n=,r=hostilenonce"));
        RawClient.Message m = c.readMessage();
        assertThat(m.type()).isEqualTo('R');
        String serverFirst = new String(m.body(), 4, m.body().length - 4, StandardCharsets.UTF_8);
        return serverFirst.substring(2, serverFirst.indexOf(','));
    }

    private static byte[] response(String text) {
        return msg('p', text.getBytes(StandardCharsets.UTF_8));
    }

    private static Hostile.Case afterFirst(String name, java.util.function.Function<String, String> finalMessage,
                                           Hostile.Outcome expected) {
        return new Hostile.Case(name, SASL, c -> c.send(response(finalMessage.apply(first(c)))), expected);
    }

    static List<Hostile.Case> cases() {
        String proof = Base64.getEncoder().encodeToString(new byte[32]);
        List<Hostile.Case> cs = new ArrayList<>();
        // SASLInitialResponse
        cs.add(of("SASL: wrong mechanism", SASL, initial("SCRAM-SHA-1", "n,,n=,r=x"), errorClose("08P01", INVALID)));
        cs.add(of("SASL: SCRAM-SHA-256-PLUS without TLS", SASL,
                initial(MECH + "-PLUS", "p=tls-server-end-point,,n=,r=x"), errorClose("08P01", INVALID)));
        cs.add(of("SASL: mechanism unterminated", SASL, msg('p', MECH.getBytes()),
                errorClose("08P01", "bad startup packet")));
        cs.add(of("SASL: no data length", SASL, msg('p', cstr(MECH)), errorClose("08P01", "malformed SASL message")));
        cs.add(of("SASL: data length -1 (crashes PgBouncer 1.18)", SASL, msg('p', cstr(MECH), i32(-1)),
                errorClose("08P01", FAILED)));
        cs.add(of("SASL: data length past the end", SASL, msg('p', cstr(MECH), i32(1000), "n,,n=,r=x".getBytes()),
                errorClose("08P01", "malformed SASL message")));
        cs.add(of("SASL: data length short of the end", SASL, msg('p', cstr(MECH), i32(3), "n,,n=,r=x".getBytes()),
                errorClose("08P01", "malformed SASL message")));
        cs.add(of("SASL: empty client-first", SASL, initial(MECH, ""), errorClose("08P01", FAILED)));
        cs.add(of("SASL: client-first garbage", SASL, initial(MECH, "hello"), errorClose("08P01", FAILED)));
        cs.add(of("SASL: client-first with an authzid", SASL, initial(MECH, "n,a=admin,n=,r=x"),
                errorClose("08P01", FAILED)));
        cs.add(of("SASL: client-first with channel binding required", SASL,
                initial(MECH, "p=tls-server-end-point,,n=,r=x"), errorClose("08P01", "malformed SCRAM message")));
        cs.add(of("SASL: client-first with a comma in the nonce", SASL, initial(MECH, "n,,n=,r=a,b"),
                errorClose("08P01", FAILED)));
        cs.add(of("SASL: client-first with an extension", SASL, initial(MECH, "n,,m=ext,n=,r=x"),
                errorClose("08P01", FAILED)));
        // read as a mechanism's name first, as PgBouncer and PostgreSQL read it
        cs.add(of("SASL: a cleartext password instead", SASL, msg('p', cstr("secret")), errorClose("08P01", INVALID)));
        cs.add(of("SASL: an empty message", SASL, msg('p'), errorClose("08P01", "bad startup packet")));
        // PgBouncer closes on a message other than a password during login, without an answer
        cs.add(of("SASL: a Query instead", SASL, msg('Q', cstr("select 1")), CLOSE));
        cs.add(of("SASL: a message over pkt_buf", SASL, header('p', 100_000),
                errorClose("08P01", "client sent partial pkt in startup phase")));
        // SASLResponse (client-final)
        cs.add(afterFirst("SASL: client-final garbage", n -> "garbage", errorClose("08P01", FAILED)));
        cs.add(afterFirst("SASL: client-final empty", n -> "", errorClose("08P01", FAILED)));
        cs.add(afterFirst("SASL: client-final with another nonce", n -> "c=biws,r=othernonce,p=" + proof,
                errorClose("08P01", FAILED)));
        cs.add(afterFirst("SASL: client-final with the client's nonce only", n -> "c=biws,r=hostilenonce,p=" + proof,
                errorClose("08P01", FAILED)));
        cs.add(afterFirst("SASL: client-final with a wrong proof", n -> "c=biws,r=" + n + ",p=" + proof,
                errorClose("28P01", FAILED)));
        cs.add(afterFirst("SASL: client-final with a short proof", n -> "c=biws,r=" + n + ",p=AAAA",
                errorClose("08P01", FAILED)));
        cs.add(afterFirst("SASL: client-final with a proof not base64", n -> "c=biws,r=" + n + ",p=!!!!",
                errorClose("08P01", FAILED)));
        cs.add(afterFirst("SASL: client-final without a proof", n -> "c=biws,r=" + n, errorClose("08P01", FAILED)));
        cs.add(afterFirst("SASL: client-final with wrong channel binding", n -> "c=eSws,r=" + n + ",p=" + proof,
                errorClose("08P01", FAILED)));
        // extensions before the proof are skipped, as PostgreSQL does; then the proof is wrong
        cs.add(afterFirst("SASL: client-final with an extension", n -> "c=biws,r=" + n + ",x=1,p=" + proof,
                errorClose("28P01", FAILED)));
        cs.add(afterFirst("SASL: client-final with bytes after the proof", n -> "c=biws,r=" + n + ",p=" + proof + ",",
                errorClose("28P01", FAILED)));
        cs.add(new Hostile.Case("SASL: a second SASLInitialResponse", SASL, c -> {
            first(c);
            c.send(initial(MECH, "n,,n=,r=again"));
        }, errorClose("08P01", FAILED)));
        cs.add(new Hostile.Case("SASL: a Sync instead of client-final", SASL, c -> {
            first(c);
            c.send(Hostile.SYNC);
        }, CLOSE));
        cs.add(new Hostile.Case("SASL: client-final never sent", SASL, HostileSaslCases::first,
                errorClose("08P01", "client_login_timeout")));
        cs.add(of("SASL: half a SASLInitialResponse, then silence", SASL, cat(header('p', 50), cstr(MECH)), SILENT));
        return cs;
    }
}
