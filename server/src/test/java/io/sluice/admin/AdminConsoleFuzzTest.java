package io.sluice.admin;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.sluice.FuzzText;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzes the console's command parser and then the console itself over a fake context: any
 * text must parse to a {@link ParsedCommand} (never an exception), and executing it must answer
 * with results, errors included, rather than throw.
 */
class AdminConsoleFuzzTest {
    private static final String[] WORDS = {"show ", "set ", "pause ", "resume ", "kill ", "reload", "disable ",
        "enable ", "reconnect ", "shutdown", "wait_close ", "suspend", "select ", "pools", "clients", "config",
        "=", "'", "\"", ";", " ", "_"};

    @FuzzTest(maxDuration = "30s")
    void commands(FuzzedDataProvider data) {
        String query = FuzzText.withHints(data, WORDS, 6, 40);
        assertThat(new AdminCommandParser().parse(query)).isNotNull();
        AdminUser who = query.length() % 2 == 0 ? ConsoleRunner.ADMIN : ConsoleRunner.STATS;
        var answer = new ConsoleRunner().console.execute(query, who).toCompletableFuture();
        if (answer.isDone()) {
            assertThat(answer.join()).isNotNull();
        }
    }
}
