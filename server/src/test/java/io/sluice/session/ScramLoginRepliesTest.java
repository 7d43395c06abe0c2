package io.sluice.session;

import io.netty.buffer.ByteBuf;
import io.sluice.auth.AuthMethod;
import io.sluice.auth.NonceSource;
import io.sluice.auth.ScramClientExchange;
import io.sluice.config.PoolMode;
import io.sluice.proto.BackendMessage;
import io.sluice.proto.codec.DecodedReplies;
import io.sluice.proto.codec.Encoders;
import io.sluice.proto.codec.ParameterStatuses;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The end of a SCRAM login on the wire: AuthenticationSASLFinal goes out with the greeting in one
 * write (two buffers made the send a writev, dearer in the kernel than a send), and a login that
 * ends before its greeting still sends it ahead of the error, as before.
 */
class ScramLoginRepliesTest {
    private static final long S = 1_000_000_000L;

    @Test
    void theSaslFinalAndTheGreetingGoOutAsOneWrite() {
        SessionHarness h = new SessionHarness(PoolMode.TRANSACTION, scram(false));
        ScramClientExchange client = proveTo(h);

        ByteBuf only = h.client.readOutbound();
        assertThat((Object) h.client.readOutbound()).as("one buffer for the whole end of the login").isNull();
        List<BackendMessage> got = messages(only);
        assertThat(got.get(0)).isInstanceOfSatisfying(BackendMessage.Authentication.class, a -> {
            assertThat(a.code()).isEqualTo(12);
            client.verifyServerFinal(new String(a.data(), StandardCharsets.UTF_8));
        });
        assertThat(got.get(1)).isInstanceOfSatisfying(BackendMessage.Authentication.class,
                a -> assertThat(a.code()).isZero());
        assertThat(got.get(got.size() - 1)).isInstanceOf(BackendMessage.ReadyForQuery.class);
        assertThat(h.session.state()).isEqualTo(ClientSession.State.IDLE);
    }

    @Test
    void aLoginEndedWhileItWaitsForItsGreetingSendsTheSaslFinalBeforeTheError() {
        SessionHarness.Config c = scram(true);
        c.queryTimeout = 3 * S;
        SessionHarness h = new SessionHarness(PoolMode.TRANSACTION, c);
        ScramClientExchange client = proveTo(h);
        assertThat((Object) h.client.readOutbound()).as("held for the greeting").isNull();

        h.time.advance(3 * S);

        List<BackendMessage> got = new ArrayList<>();
        for (ByteBuf b; (b = h.client.readOutbound()) != null; ) {
            got.addAll(messages(b));
        }
        assertThat(h.session.state()).isEqualTo(ClientSession.State.CLOSED);
        assertThat(got).hasSize(2);
        assertThat(got.get(0)).isInstanceOfSatisfying(BackendMessage.Authentication.class, a -> {
            assertThat(a.code()).isEqualTo(12);
            client.verifyServerFinal(new String(a.data(), StandardCharsets.UTF_8));
        });
        assertThat(got.get(1)).isInstanceOfSatisfying(BackendMessage.ErrorOrNotice.class, e -> {
            assertThat(e.error()).isTrue();
            assertThat(e.fields().get('M')).isEqualTo("query_timeout");
        });
    }

    @Test
    void aGreetingAfterAWaitStillCarriesTheSaslFinal() {
        SessionHarness h = new SessionHarness(PoolMode.TRANSACTION, scram(true));
        ScramClientExchange client = proveTo(h);
        h.heldWelcome.welcome(ParameterStatuses.of(Map.of("server_version", "15.0")));

        List<BackendMessage> got = messages(h.client.readOutbound());
        assertThat(got.get(0)).isInstanceOfSatisfying(BackendMessage.Authentication.class, a -> {
            assertThat(a.code()).isEqualTo(12);
            client.verifyServerFinal(new String(a.data(), StandardCharsets.UTF_8));
        });
        assertThat(got.get(1)).isInstanceOfSatisfying(BackendMessage.Authentication.class,
                a -> assertThat(a.code()).isZero());
        assertThat((Object) h.client.readOutbound()).isNull();
    }

    private static SessionHarness.Config scram(boolean holdWelcome) {
        SessionHarness.Config c = new SessionHarness.Config();
        c.auth = AuthMethod.SCRAM_SHA_256;
        c.secret = "pw";
        c.holdWelcome = holdWelcome;
        return c;
    }

    /** The exchange up to and with the client's final message; returns the client's side of it. */
    private static ScramClientExchange proveTo(SessionHarness h) {
        ScramClientExchange client = ScramClientExchange.withPassword("pw", NonceSource.secureRandom());
        String serverFirst = exchangeFirst(h, client);
        h.clientSends(Encoders.saslResponse(SessionHarness.ALLOC, client.clientFinal(serverFirst)));
        return client;
    }

    /** The harness's client got the SASL challenge at its startup; sends client-first, returns server-first. */
    private static String exchangeFirst(SessionHarness h, ScramClientExchange client) {
        h.clientSends(Encoders.saslInitialResponse(SessionHarness.ALLOC, client.mechanism(), client.clientFirst()));
        List<BackendMessage> got = messages(h.client.readOutbound());
        assertThat(got).hasSize(1);
        BackendMessage.Authentication cont = (BackendMessage.Authentication) got.get(0);
        assertThat(cont.code()).isEqualTo(11);
        return new String(cont.data(), StandardCharsets.UTF_8);
    }

    private static List<BackendMessage> messages(ByteBuf bytes) {
        assertThat(bytes).isNotNull();
        return DecodedReplies.of(bytes);
    }
}
