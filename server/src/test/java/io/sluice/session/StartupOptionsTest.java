package io.sluice.session;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 12 item 9: the {@code options} startup parameter, read with PgBouncer 1.25's rules and cases. */
class StartupOptionsTest {
    private static final List<Map.Entry<String, String>> PORTUGAL =
            List.of(Map.entry("timezone", "Portugal"), Map.entry("datestyle", "German, YMD"));

    private static List<Map.Entry<String, String>> settings(String options) {
        StartupOptions.Result r = StartupOptions.parse(options);
        assertThat(r).as(options).isInstanceOf(StartupOptions.Settings.class);
        return ((StartupOptions.Settings) r).settings();
    }

    @Test
    void readsTheSpellingsPgBouncerAccepts() {
        assertThat(settings("-c timezone=Portugal  -c    datestyle=German,\\ YMD")).isEqualTo(PORTUGAL);
        assertThat(settings("-ctimezone=Portugal  -cdatestyle=German,\\ YMD")).isEqualTo(PORTUGAL);
        assertThat(settings("--timezone=Portugal  --datestyle=German,\\ YMD")).isEqualTo(PORTUGAL);
        assertThat(settings("-c t\\imezone=\\P\\o\\r\\t\\ugal  -c    dat\\estyle\\=\\Ge\\rman,\\ YMD")).isEqualTo(PORTUGAL);
        assertThat(settings("")).isEmpty();
        assertThat(settings("-c search_path=a=b")).containsExactly(Map.entry("search_path", "a=b"));
    }

    @Test
    void refusesEverythingElseWithPgBouncersMessage() {
        for (String bad : List.of("-d", "-c timezone", "-c timezone=UTC ", "   ", "timezone=UTC", "-f s")) {
            assertThat(StartupOptions.parse(bad)).as(bad)
                    .isEqualTo(new StartupOptions.Refused("unsupported options startup parameter: only"
                            + " '-c config=val' and '--config=val' are allowed"));
        }
    }

    @Test
    void appliesTrackedSettingsAndRefusesOrIgnoresTheRest() {
        Set<String> known = Set.of("application_name", "timezone", "datestyle");
        ClientParams params = new ClientParams(Set.of("timezone", "datestyle"));
        assertThat(StartupOptions.apply("-c TimeZone=Asia/Tokyo --application_name=x", params, known, Set.of()))
                .isNull();
        assertThat(params.syncQuery(Map.of("TimeZone", "UTC", "application_name", "")))
                .isEqualTo("SET TimeZone = 'Asia/Tokyo';SET application_name = 'x';");

        ClientParams other = new ClientParams(Set.of("timezone"));
        assertThat(StartupOptions.apply("-c enable_seqscan=off", other, known, Set.of()))
                .isEqualTo(new StartupOptions.Refused("unsupported startup parameter in options: enable_seqscan",
                        "unsupported startup parameter in options: enable_seqscan=off"));
        assertThat(StartupOptions.apply("-c enable_seqscan=off", other, known, Set.of("enable_seqscan"))).isNull();
        // "options" in ignore_startup_parameters drops unknown settings but still applies known ones
        assertThat(StartupOptions.apply("-c enable_seqscan=off -c timezone=UTC", other, known, Set.of("options")))
                .isNull();
        assertThat(other.syncQuery(Map.of("TimeZone", "Asia/Tokyo"))).isEqualTo("SET TimeZone = 'UTC';");
    }
}
