package io.sluice.auth;

import static io.sluice.auth.ScramExchangeTest.CNONCE;
import static io.sluice.auth.ScramExchangeTest.RFC_CLIENT_FIRST;
import static io.sluice.auth.ScramExchangeTest.SNONCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.junit.jupiter.api.Test;

/** Protocol errors on both sides surface as ScramException carrying 08P01. */
class ScramMalformedTest {
    private static final String PROOF = "dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=";
    private static final String NONCE = CNONCE + SNONCE;

    private static AuthFailure clientFirstFails(String msg) {
        ScramException e = catchThrowableOfType(
                () -> ScramExchangeTest.rfcServer().serverFirst(msg), ScramException.class);
        assertThat(e).as(msg).isNotNull();
        return e.failure();
    }

    private static AuthFailure clientFinalFails(String msg) {
        ScramServerExchange server = ScramExchangeTest.rfcServer();
        server.serverFirst(RFC_CLIENT_FIRST);
        ScramException e = catchThrowableOfType(
                () -> server.verifyClientFinal(msg), ScramException.class);
        assertThat(e).as(msg).isNotNull();
        return e.failure();
    }

    @Test
    void malformedClientFirstIs08P01() {
        String[] bad = {"", "x,,n=,r=a", "n", "n;,n=,r=a", "n,x,n=,r=a", "n,,r=abc", "n,,n=,",
            "n,,n=,r=a b", "n,,n=,r=abc,1=x", "n,,n=,r=abc,x", "n,,n", "n,,n=,r"};
        for (String b : bad) {
            AuthFailure f = clientFirstFails(b);
            assertThat(f.sqlState()).as(b).isEqualTo("08P01");
        }
    }

    @Test
    void detailsFollowPgBouncerWording() {
        assertThat(clientFirstFails("x,,n=,r=a").detail())
                .isEqualTo("malformed SCRAM message (unexpected channel-binding flag \"'x'\")");
        assertThat(clientFirstFails("").detail())
                .isEqualTo("malformed SCRAM message (unexpected channel-binding flag \"0x00\")");
        assertThat(clientFirstFails("n,,r=abc").detail())
                .isEqualTo("malformed SCRAM message (attribute \"n\" expected)");
        AuthFailure f = clientFirstFails("n,,n=,r=a b");
        assertThat(f.message()).isEqualTo("malformed SCRAM message");
        assertThat(f.detail()).isEqualTo("non-printable characters in SCRAM nonce");
    }

    @Test
    void channelBindingWithoutPlusIsRefusedInPostgresWords() {
        AuthFailure f = clientFirstFails("p=tls-server-end-point,,n=,r=abc");
        assertThat(f.sqlState()).isEqualTo("08P01");
        assertThat(f.postgresWords()).isTrue();
        assertThat(f.detail()).isEqualTo("The client selected SCRAM-SHA-256 without channel binding, "
                + "but the SCRAM message includes channel binding data.");
    }

    @Test
    void authzidAndMandatoryExtensionsAreRefused() {
        assertThat(clientFirstFails("n,a=bob,n=,r=abc").detail())
                .isEqualTo("client uses authorization identity, but it is not supported");
        assertThat(clientFirstFails("n,,m=ext,n=,r=abc").detail())
                .isEqualTo("client requires an unsupported SCRAM extension");
    }

    @Test
    void optionalExtensionsInClientFirstAreIgnored() {
        assertThat(ScramExchangeTest.rfcServer().serverFirst("n,,n=bob,r=abc,x=1"))
                .startsWith("r=abc" + SNONCE + ",");
    }

    @Test
    void malformedClientFinalIs08P01() {
        String[] bad = {
            "",
            "r=" + NONCE + ",p=" + PROOF,
            "c=eSws,r=" + NONCE + ",p=" + PROOF, // 'y' binding data after an 'n' flag
            "c=biws,p=" + PROOF,
            "c=biws,r=" + NONCE,
            "c=biws,r=" + NONCE + ",p=AAAA",
            "c=biws,r=" + NONCE + ",p=!!!",
            "c=biws,r=" + NONCE + ",p=" + PROOF + ",x=1",
            "c=biws,r=" + NONCE + "x,p=" + PROOF,
            "c=biws,r=" + CNONCE + ",p=" + PROOF,
        };
        for (String b : bad) {
            assertThat(clientFinalFails(b).sqlState()).as(b).isEqualTo("08P01");
        }
        assertThat(clientFinalFails("c=biws,r=" + NONCE).detail()).isEqualTo("could not read proof");
        assertThat(clientFinalFails("c=biws,r=" + CNONCE + ",p=" + PROOF).detail())
                .isEqualTo("invalid SCRAM response (nonce does not match)");
    }

    @Test
    void extensionsBeforeProofAreIgnoredButCountInAuthMessage() {
        ScramServerExchange server = ScramExchangeTest.rfcServer();
        server.serverFirst(RFC_CLIENT_FIRST);
        // The RFC proof covers "c=biws,r=..." only, so an added extension must break it.
        assertThat(server.verifyClientFinal("c=biws,r=" + NONCE + ",x=1,p=" + PROOF))
                .isInstanceOf(ScramServerExchange.Failure.class);
    }

    private static AuthFailure serverFirstFails(String msg) {
        ScramClientExchange c = ScramClientExchange.withPassword("p", NonceSource.fixed(CNONCE));
        c.clientFirst();
        ScramException e = catchThrowableOfType(() -> c.clientFinal(msg), ScramException.class);
        assertThat(e).as(msg).isNotNull();
        return e.failure();
    }

    @Test
    void malformedServerFirstIsRejectedByClient() {
        String salt = ",s=W22ZaJ0SNY7soEsUEjb6gQ==";
        String[] bad = {"", "r=other" + salt + ",i=1", "r=" + CNONCE + salt + ",i=1",
            "r=" + NONCE + ",s=!!,i=1", "r=" + NONCE + salt + ",i=0", "r=" + NONCE + salt + ",i=x",
            "r=" + NONCE + salt, "r=" + NONCE + salt + ",i=1,z=2", "r=" + NONCE + salt + ",i=99999999999"};
        for (String b : bad) {
            assertThat(serverFirstFails(b).sqlState()).as(b).isEqualTo("08P01");
        }
        assertThat(serverFirstFails("r=other" + salt + ",i=1").detail())
                .isEqualTo("invalid SCRAM response (nonce mismatch)");
    }

    @Test
    void serverFinalErrorsAreReported() {
        String[] bad = {"e=invalid-proof", "v=AAAA", "x=1", "v=" + PROOF + ",x=1"};
        for (String b : bad) {
            ScramClientExchange c = ScramClientExchange.withPassword("pencil",
                    NonceSource.fixed(CNONCE)).userName("user");
            c.clientFirst();
            c.clientFinal(ScramExchangeTest.RFC_SERVER_FIRST);
            ScramException e = catchThrowableOfType(() -> c.verifyServerFinal(b),
                    ScramException.class);
            assertThat(e).as(b).isNotNull();
            assertThat(e.failure().sqlState()).isEqualTo("08P01");
        }
    }

    @Test
    void serverErrorTextIsKept() {
        ScramClientExchange c = ScramClientExchange.withPassword("pencil",
                NonceSource.fixed(CNONCE)).userName("user");
        c.clientFirst();
        c.clientFinal(ScramExchangeTest.RFC_SERVER_FIRST);
        ScramException e = catchThrowableOfType(() -> c.verifyServerFinal("e=invalid-proof"),
                ScramException.class);
        assertThat(e.getMessage())
                .isEqualTo("error received from server in SCRAM exchange: invalid-proof");
    }
}
