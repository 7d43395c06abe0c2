package io.sluice.config;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.sluice.FuzzText;
import io.sluice.config.hba.HbaException;
import io.sluice.config.hba.HbaParser;
import io.sluice.config.ini.IniException;
import io.sluice.config.ini.IniLine;
import io.sluice.config.ini.IniParser;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Fuzzes pgbouncer.ini from text to snapshot (sections, the key table's value parsers,
 * connection strings, [users] and [peers]) and the hba parser: a bad file may only be refused
 * with an {@link IniException} / {@link ConfigException} / {@link HbaException}. Inputs that
 * would make the loader open other files (%include, *_file keys, hba @file) are skipped: which file a path
 * names is the operator's business, not the parser's.
 */
class IniFuzzTest {
    private static final Path NOWHERE = Path.of("/nonexistent-sluice-fuzz");
    private static final String[] HINTS = {"[pgbouncer]\n", "[databases]\n", "[users]\n", "[peers]\n",
        "pool_mode = ", "listen_port = ", "max_client_conn = ", "server_lifetime = ", "db = host=", " port=",
        " pool_size=", " dbname=", "auth_type = ", "ignore_startup_parameters = ", "'", "=", "\n"};

    @FuzzTest(maxDuration = "30s")
    void config(FuzzedDataProvider data) {
        String ini = FuzzText.withHints(data, HINTS, 10, 30);
        String lower = ini.toLowerCase(Locale.ROOT);
        if (lower.contains("%include") || lower.contains("_file")) {
            return;
        }
        try {
            List<IniLine> lines = new IniParser(NOWHERE).parseString("fuzz.ini", ini);
            ConfigLoader.build(Path.of("fuzz.ini"), NOWHERE, lines);
        } catch (IniException | ConfigException refused) {
            // the declared answer to a bad file
        }
        if (ini.contains("@")) {
            return; // @file names another file
        }
        try {
            HbaParser.parse("pg_hba.conf", ini, NOWHERE);
        } catch (HbaException refused) {
            // likewise
        }
    }
}
