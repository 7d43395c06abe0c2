package io.sluice.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class AuthQueryReplyTest {

    @Test
    void aRowNamesTheUserAndItsSecret() {
        AuthQueryReply r = new AuthQueryReply();
        r.columns(2);
        r.row(Arrays.asList("alice", "md5abc"));
        assertThat(r.outcome()).isEqualTo(new AuthQueryReply.Found("alice", "md5abc"));
    }

    @Test
    void noRowMeansNoSuchUserButANullUserNameIsUnusable() {
        AuthQueryReply none = new AuthQueryReply();
        none.columns(2);
        assertThat(none.outcome()).isInstanceOf(AuthQueryReply.NotFound.class);
        AuthQueryReply nullUser = new AuthQueryReply();
        nullUser.columns(2);
        nullUser.row(Arrays.asList(null, null));
        assertThat(nullUser.outcome()).isEqualTo(new AuthQueryReply.Failed("auth_query response contained null user name"));
        assertThat(nullUser.broken()).as("the server's state is clean").isFalse();
    }

    @Test
    void aNullSecretIsAUserWithoutPassword() {
        AuthQueryReply r = new AuthQueryReply();
        r.columns(2);
        r.row(Arrays.asList("expired", null));
        assertThat(r.outcome()).isEqualTo(new AuthQueryReply.Found("expired", ""));
    }

    @Test
    void pgBouncersReasonsForUnusableAnswers() {
        AuthQueryReply three = new AuthQueryReply();
        three.columns(3);
        assertThat(three.outcome()).isEqualTo(new AuthQueryReply.Failed("expected 2 columns from auth_query, not 3"));
        AuthQueryReply error = new AuthQueryReply();
        error.error();
        error.unexpected();
        assertThat(error.outcome()).as("the first reason stays")
                .isEqualTo(new AuthQueryReply.Failed("error response from auth_query"));
        AuthQueryReply odd = new AuthQueryReply();
        odd.unexpected();
        assertThat(odd.failed()).isTrue();
        assertThat(odd.broken()).isTrue();
        AuthQueryReply serverError = new AuthQueryReply();
        serverError.error();
        assertThat(serverError.broken()).as("an ErrorResponse still ends in ReadyForQuery").isFalse();
        assertThat(odd.outcome()).isEqualTo(new AuthQueryReply.Failed("unexpected response from auth_query"));
    }
}
