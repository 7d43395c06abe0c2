package io.sluice.config;

import io.sluice.config.hba.HbaException;
import io.sluice.config.hba.HbaParser;
import io.sluice.config.hba.HbaRules;
import io.sluice.config.hba.IdentMaps;
import io.sluice.config.hba.IdentParser;
import io.sluice.config.userlist.AuthFile;
import io.sluice.config.userlist.AuthFileException;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The auth and hba files as PgBouncer reads them at start and on RELOAD, where a bad file must
 * not stop the pooler or fail the reload: what cannot be read is an ERROR (to {@code errors}); an
 * hba line that cannot be read is skipped with PgBouncer's two warnings ("hba line N: ...",
 * "could not parse hba config line N"). A file that cannot be used at all leaves what a reload
 * had ({@code previous}); at start the auth file's users before a broken line are the users, and
 * without hba rules every login is rejected, as PgBouncer rejects them.
 */
record LenientFiles(Consumer<String> errors, Optional<ConfigSnapshot> previous) {

    Optional<AuthFile> auth(AuthFileException e) {
        errors.accept(e.line() == 0 ? e.what() : e.what() + " (" + e.file() + ":" + e.line() + ")");
        return previous.flatMap(ConfigSnapshot::authFile).or(() -> Optional.of(e.readSoFar()));
    }

    Optional<HbaRules> hba(Settings settings, Path workingDir, List<String> warnings) {
        if (!settings.string("auth_type").equals("hba")) {
            return Optional.empty();
        }
        String name = settings.string("auth_hba_file");
        if (name.isEmpty()) {
            errors.accept("auth_type = hba needs auth_hba_file; every login is rejected");
            return Optional.of(new HbaRules("", List.of())); // a reload that turns hba on gets no rules either
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
            Optional<HbaRules> kept = previous.flatMap(ConfigSnapshot::hba);
            errors.accept(e.what() + (kept.isPresent() ? "; the rules read before stay" : "; every login is rejected"));
            return kept.or(() -> Optional.of(new HbaRules(name, List.of())));
        }
    }
}
