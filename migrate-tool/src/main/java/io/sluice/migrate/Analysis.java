package io.sluice.migrate;

import io.sluice.config.ConfigException;
import io.sluice.config.ConfigLoader;
import io.sluice.config.ConfigSnapshot;
import io.sluice.config.userlist.AuthFile;
import io.sluice.config.userlist.Secret;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Checks on a converted config that need the whole file: it must load in Sluice, and the auth
 * file's secrets must suit auth_type. Stateless.
 */
final class Analysis {
    private static final Pattern AUX_FILE_LINE = Pattern.compile("^\\s*(auth_file|auth_hba_file|auth_ident_file)\\s*=.*$");

    private Analysis() {
    }

    /**
     * Loads the converted text with Sluice's loader. Files it names that are not on this machine
     * (auth_file, auth_hba_file, auth_ident_file: converting on a workstation is normal) are
     * reported and left out of the analysis; any other failure means the conversion is wrong and
     * is an input error.
     */
    static ConfigSnapshot loadConverted(String converted, Path wd, Report report) throws InputException {
        String text = converted;
        for (int attempt = 0; attempt < 3; attempt++) {
            Path tmp = null;
            try {
                tmp = Files.createTempFile("sluice-migrate-", ".ini");
                Files.writeString(tmp, text, StandardCharsets.UTF_8);
                return ConfigLoader.load(tmp, wd);
            } catch (ConfigException e) {
                String[] lines = text.split("\n", -1);
                int idx = e.line() - 1;
                if (e.file() != null && tmp != null && e.file().equals(tmp.toString()) && idx >= 0
                        && idx < lines.length && AUX_FILE_LINE.matcher(lines[idx]).matches()) {
                    report.add(Severity.WARNING, "files", lines[idx].split("=")[0].strip(), "",
                            e.what() + " (on this machine); its contents were not analysed");
                    lines[idx] = ";" + lines[idx];
                    text = String.join("\n", lines);
                    continue;
                }
                throw new InputException("the converted config does not load in Sluice: " + e.getMessage());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                if (tmp != null) {
                    try {
                        Files.deleteIfExists(tmp);
                    } catch (IOException ignored) {
                        // temp file: harmless if left
                    }
                }
            }
        }
        throw new InputException("the converted config does not load in Sluice");
    }

    /** Secret forms against auth_type (the checks that need no server). */
    static void secrets(ConfigSnapshot snap, Optional<AuthFile> auth, Report report) {
        String authType = snap.authType();
        if (auth.isEmpty()) {
            if (List.of("md5", "scram-sha-256", "plain", "trust").contains(authType)
                    && snap.settings().string("auth_file").isEmpty()) {
                report.add(Severity.WARNING, "secrets", "auth_file", "", "auth_type = " + authType
                        + " without auth_file: only users found through auth_query can log in");
            }
            return;
        }
        List<String> md5 = new ArrayList<>();
        int plain = 0;
        int scram = 0;
        for (Map.Entry<String, Secret> e : auth.get().users().entrySet()) {
            switch (e.getValue().kind()) {
                case MD5 -> md5.add(e.getKey());
                case PLAIN -> plain++;
                default -> scram++;
            }
        }
        report.fact("secrets", md5.size() + " md5, " + scram + " SCRAM, " + plain + " plain");
        if (authType.equals("scram-sha-256") && !md5.isEmpty()) {
            report.add(Severity.WARNING, "secrets", "auth_type", "", "auth_type = scram-sha-256 but "
                    + md5.size() + " auth file entries are md5 hashes " + md5 + ": those users cannot log in "
                    + "(as under PgBouncer); store plain or SCRAM secrets for them");
        }
        if (plain > 0) {
            report.add(Severity.INFO, "secrets", "auth_file", "", plain
                    + " auth file entries are clear-text passwords; keep the file readable by the pooler only");
        }
    }
}
