package io.sluice.config.userlist;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Fuzzes the userlist.txt parser and the secrets it yields (kind, md5 check, SCRAM secret
 * parse): a bad file may only be refused with an {@link AuthFileException}.
 */
class AuthFileFuzzTest {
    @FuzzTest(maxDuration = "30s")
    void parse(FuzzedDataProvider data) {
        String text = data.consumeRemainingAsString();
        AuthFile file;
        try {
            file = AuthFileParser.parse("userlist.txt", text);
        } catch (AuthFileException refused) {
            return;
        }
        for (String user : file.users().keySet()) {
            Secret s = file.users().get(user);
            if (s != null) {
                Secret.kindOf(s.text());
                Secret.isMd5(s.text());
                s.scram();
            }
        }
        Secret.kindOf(text);
        ScramSecret.parse(text);
    }
}
