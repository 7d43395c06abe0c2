package io.sluice.config;

import io.sluice.config.hba.HbaException;
import io.sluice.config.hba.HbaParser;
import io.sluice.config.hba.HbaRules;
import io.sluice.config.hba.IdentMaps;
import io.sluice.config.hba.IdentParser;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The hba file as PgBouncer reads it at start, where a bad file must not stop the pooler: a line
 * that cannot be read is skipped with PgBouncer's two warnings ("hba line N: ...", "could not
 * parse hba config line N"), and a file (or ident file) that cannot be read is an ERROR; without
 * hba rules every login is rejected, as PgBouncer rejects them.
 */
final class StartFiles {
    private StartFiles() {
    }

    static Optional<HbaRules> hba(Settings settings, Path workingDir, Consumer<String> errors, List<String> warnings) {
        if (!settings.string("auth_type").equals("hba")) {
            return Optional.empty();
        }
        String name = settings.string("auth_hba_file");
        if (name.isEmpty()) {
            errors.accept("auth_type = hba needs auth_hba_file; every login is rejected");
            return Optional.of(new HbaRules("", List.of()));
        }
        IdentMaps idents = IdentMaps.NONE;
        String identName = settings.string("auth_ident_file");
        if (!identName.isEmpty()) {
            try {
                idents = IdentParser.read(workingDir.resolve(identName), identName);
            } catch (HbaException e) {
                errors.accept(e.what()); // the hba lines that name its maps are skipped below
            }
        }
        try {
            return Optional.of(HbaParser.readSkipping(workingDir.resolve(name), name, idents, e -> {
                warnings.add("hba line " + e.line() + ": " + e.what() + " (" + e.file() + ")");
                warnings.add("could not parse hba config line " + e.line());
            }));
        } catch (HbaException e) {
            errors.accept(e.what() + "; every login is rejected");
            return Optional.of(new HbaRules(name, List.of()));
        }
    }
}
