package io.sluice.auth;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Fuzzes both sides of SCRAM-SHA-256 with hostile messages: a client's client-first and
 * client-final to the server side (often built around the real nonce, so the fuzzer gets past
 * the nonce check to the proof), and a server's server-first and server-final to the client
 * side. The declared refusal is a {@link ScramException}; a wrong proof is a
 * {@link ScramServerExchange.Failure}; anything else escaping is a bug.
 */
class ScramFuzzTest {
    private static final ScramSecret SECRET = ScramSecret.fromPassword("secret", new byte[16], 4096);

    @FuzzTest(maxDuration = "30s")
    void serverSide(FuzzedDataProvider data) {
        ScramServerExchange server = new ScramServerExchange("postgres", SECRET, NonceSource.fixed("snonce"));
        String serverFirst;
        try {
            serverFirst = server.serverFirst(data.consumeString(300));
        } catch (ScramException refused) {
            return;
        }
        String nonce = serverFirst.substring(2, serverFirst.indexOf(','));
        String fin = data.consumeBoolean()
                ? data.consumeString(100) + ",r=" + nonce + "," + data.consumeRemainingAsString()
                : data.consumeRemainingAsString();
        try {
            server.verifyClientFinal(fin);
        } catch (ScramException refused) {
            // the declared answer to a malformed message
        }
    }

    @FuzzTest(maxDuration = "30s")
    void clientSide(FuzzedDataProvider data) {
        // with recovered keys: a server cannot make the client hash for long with a huge i=
        ScramClientExchange client = ScramClientExchange.withKeys(new byte[32], new byte[32],
                NonceSource.fixed("cnonce"));
        client.clientFirst();
        String first = data.consumeBoolean() ? "r=cnonce" + data.consumeString(200) : data.consumeString(200);
        try {
            client.clientFinal(first);
            client.verifyServerFinal(data.consumeRemainingAsString());
        } catch (ScramException refused) {
            // the declared answer to a malformed or wrong server message
        }
    }
}
