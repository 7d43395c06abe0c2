package io.sluice.config;

import io.sluice.config.hba.HbaException;
import io.sluice.config.hba.HbaRules;
import io.sluice.config.userlist.AuthFile;
import io.sluice.config.userlist.AuthFileException;

import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What a start or a RELOAD does with an auth or hba file it cannot fully use, as PgBouncer does
 * (ConfigLoader reads the files and hands the failures here), where a bad file must not stop the
 * pooler or fail the reload: what cannot be read is an ERROR (to {@code errors}); an
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

    /** An hba line that cannot be read: PgBouncer's two warnings, and the line is skipped. */
    Consumer<HbaException> skipped(List<String> warnings) {
        return e -> {
            warnings.add("hba line " + e.line() + ": " + e.what() + " (" + e.file() + ")");
            warnings.add("could not parse hba config line " + e.line());
        };
    }

    /** No hba rules could be read ({@code why}): a reload keeps the ones it had, a start rejects every login. */
    Optional<HbaRules> noRules(String name, String why) {
        Optional<HbaRules> kept = previous.flatMap(ConfigSnapshot::hba);
        errors.accept(why + (kept.isPresent() ? "; the rules read before stay" : "; every login is rejected"));
        return kept.or(() -> Optional.of(new HbaRules(name, List.of())));
    }
}
