package io.sluice.config;

import io.sluice.config.hba.HbaException;
import io.sluice.config.hba.HbaParser;
import io.sluice.config.hba.HbaRules;
import io.sluice.config.hba.IdentMaps;
import io.sluice.config.hba.IdentParser;
import io.sluice.config.ini.IniException;
import io.sluice.config.ini.IniLine;
import io.sluice.config.ini.IniParser;
import io.sluice.config.userlist.AuthFile;
import io.sluice.config.userlist.AuthFileException;
import io.sluice.config.userlist.AuthFileParser;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Builds a {@link ConfigSnapshot} from pgbouncer.ini with PgBouncer's rules and error texts
 * (every error {@code <file>:<line>: <what>}). Everything is read and checked before the
 * snapshot is built, so a failed load or reload leaves nothing half-applied. Relative
 * {@code %include}, auth_file and auth_hba_file names resolve against the working directory,
 * as in PgBouncer. Stateless.
 */
public final class ConfigLoader {

    private ConfigLoader() {
    }

    /** Loads {@code file} relative to the process's working directory. */
    public static ConfigSnapshot load(Path file) throws ConfigException {
        return load(file, Path.of("").toAbsolutePath());
    }

    /** Loads {@code file}; relative names resolve against {@code workingDir}. */
    public static ConfigSnapshot load(Path file, Path workingDir) throws ConfigException {
        return build(file, workingDir, lines(file, workingDir), null);
    }

    /**
     * Loads {@code file} for a start, as PgBouncer starts: an auth_file that is missing or has a
     * broken line goes to {@code errors} (PgBouncer's ERROR) and the users read before it are
     * kept; an hba line that cannot be read is skipped with PgBouncer's two warnings, and a
     * missing hba file rejects every login. The migrate tool's checks refuse such files.
     */
    public static ConfigSnapshot loadForStart(Path file, Consumer<String> errors) throws ConfigException {
        Path workingDir = Path.of("").toAbsolutePath();
        return build(file, workingDir, lines(file, workingDir), new LenientFiles(errors, Optional.empty()));
    }

    private static List<IniLine> lines(Path file, Path workingDir) throws ConfigException {
        try {
            return new IniParser(workingDir).parse(workingDir.resolve(file), file.toString());
        } catch (IniException e) {
            if (e.file() == null) {
                throw new ConfigException(e.what());
            }
            throw e.include() ? ConfigException.includeFailed(e.file(), e.line(), e.what())
                    : new ConfigException(e.file(), e.line(), e.what());
        }
    }

    /**
     * Loads a config given as text, for configs Sluice writes itself (the start-up warm-up's);
     * {@code name} stands for the file in messages, relative names resolve against the working directory.
     */
    public static ConfigSnapshot loadText(String name, String text) throws ConfigException {
        Path workingDir = Path.of("").toAbsolutePath();
        List<IniLine> lines;
        try {
            lines = new IniParser(workingDir).parseString(name, text);
        } catch (IniException e) {
            throw new ConfigException(e.file(), e.line(), e.what());
        }
        return build(Path.of(name), workingDir, lines, null);
    }

    /**
     * RELOAD: loads the file named by {@code current}'s conffile; keys that need a restart
     * keep their current values (with a warning if the file asks for another value), as
     * PgBouncer silently ignores them on reload. An auth or hba file that cannot be used does not
     * fail the reload, as in PgBouncer: it goes to {@code fileErrors} and the one read before stays.
     */
    public static ConfigSnapshot reload(ConfigSnapshot current, Consumer<String> fileErrors) throws ConfigException {
        String conffile = current.conffile().isEmpty() ? current.source().toString() : current.conffile();
        Path file = Path.of(conffile);
        ConfigSnapshot fresh = build(file, current.workingDir(), lines(file, current.workingDir()),
                new LenientFiles(fileErrors, Optional.of(current)));
        Settings kept = fresh.settings();
        List<String> warnings = new ArrayList<>(fresh.warnings());
        for (ConfigKey k : ConfigKeys.all()) {
            Object old = current.settings().value(k.name());
            if (!k.changeable() && !old.equals(kept.value(k.name()))) {
                warnings.add(conffile + ": parameter " + k.name() + " needs a restart to change; keeping "
                        + ValueCodec.format(k, old));
                kept = kept.with(k, old);
            }
        }
        return new ConfigSnapshot(fresh.source(), fresh.workingDir(), kept, fresh.databases(),
                fresh.fallback(), fresh.users(), fresh.peers(), fresh.authFile(), fresh.hba(), warnings);
    }

    /** Builds a snapshot from parsed lines; package-private so the fuzz test can skip the file system. */
    static ConfigSnapshot build(Path file, Path workingDir, List<IniLine> lines) throws ConfigException {
        return build(file, workingDir, lines, null);
    }

    /** {@code lenient}: null refuses a bad auth or hba file, else says what a start or reload does with one. */
    private static ConfigSnapshot build(Path file, Path workingDir, List<IniLine> lines, LenientFiles lenient)
            throws ConfigException {
        Settings settings = Settings.defaults().with(ConfigKeys.get("conffile"), file.toString());
        try {
            Map<String, IniLine> keyLines = new LinkedHashMap<>();
            List<String> warnings = new ArrayList<>();
            Map<String, DatabaseEntry> databases = new LinkedHashMap<>();
            DatabaseEntry fallback = null;
            Map<String, UserEntry> users = new LinkedHashMap<>();
            Map<Integer, PeerEntry> peers = new LinkedHashMap<>();
            String section = null;
            boolean sawMain = false;
            for (IniLine l : lines) {
                if (l.isSection()) {
                    section = l.name().toLowerCase(Locale.ROOT);
                    switch (section) {
                        case "pgbouncer" -> sawMain = true;
                        case "databases", "users", "peers" -> { }
                        default -> throw error(l, "invalid section \"" + l.name() + "\"");
                    }
                    continue;
                }
                if (section == null) {
                    throw error(l, "value without section: " + l.name());
                }
                try {
                    switch (section) {
                        case "pgbouncer" -> {
                            ConfigKey k = ConfigKeys.find(l.name()).orElseThrow(() -> new ConfigException(l.file(), l.line(),
                                    "unknown parameter: pgbouncer/" + l.name(),
                                    "invalid value \"" + l.value() + "\" for parameter " + l.name()));
                            Object v = Settings.parse(k, l.value());
                            settings = settings.with(k, v);
                            keyLines.putIfAbsent(k.name(), l);
                            SupportRules.warn(k, v).ifPresent(w -> warnings.add(place(l) + w));
                        }
                        case "databases" -> {
                            DatabaseEntry e = EntryParsers.database(l.name(), l.value());
                            if (e.name().equals(DatabaseEntry.FALLBACK)) {
                                fallback = e;
                            } else {
                                databases.put(e.name(), e);
                            }
                        }
                        case "users" -> {
                            UserEntry u = EntryParsers.user(l.name(), l.value());
                            users.put(u.name(), u);
                        }
                        default -> {
                            PeerEntry p = EntryParsers.peer(l.name(), l.value());
                            peers.put(p.peerId(), p);
                        }
                    }
                } catch (IllegalArgumentException e) {
                    // PgBouncer logs the entry parser's reason, then the line's value as an invalid one
                    throw section.equals("pgbouncer") ? error(l, e.getMessage()) : new ConfigException(l.file(), l.line(),
                            e.getMessage(), "invalid value \"" + l.value() + "\" for parameter " + l.name());
                }
            }
            if (!sawMain) {
                // PgBouncer's words, its function's name included: operators grep their logs for them
                throw new ConfigException("load_init_file: main section missing from config file");
            }
            for (Map.Entry<String, IniLine> e : keyLines.entrySet()) {
                if (!ConfigKeys.get(e.getKey()).supported()) {
                    warnings.add(place(e.getValue()) + "parameter " + e.getKey()
                            + " is accepted but not acted on by Sluice yet");
                }
            }
            checkCombinations(file, settings, warnings);
            Optional<AuthFile> authFile = readAuthFile(settings, workingDir, keyLines.get("auth_file"), lenient);
            IniLine hbaLine = keyLines.getOrDefault("auth_hba_file", keyLines.get("auth_type"));
            Optional<HbaRules> hba = readHba(settings, workingDir, hbaLine, keyLines.get("auth_ident_file"),
                    lenient, warnings);
            return new ConfigSnapshot(file, workingDir, settings, databases, Optional.ofNullable(fallback),
                    users, peers, authFile, hba, warnings);
        } catch (ConfigException e) {
            // PgBouncer logs into the logfile a line before the bad one named: the caller may too
            throw e.afterLogfile(settings.string("logfile"));
        }
    }

    /** Warnings about settings that are valid alone but work badly together (pressure.md). */
    private static void checkCombinations(Path file, Settings s, List<String> warnings) {
        long wait = s.nanos("query_wait_timeout");
        long reserve = s.nanos("reserve_pool_timeout");
        if (wait > 0 && wait < reserve) {
            warnings.add(file + ": query_wait_timeout (" + s.format("query_wait_timeout")
                    + ") is less than reserve_pool_timeout (" + s.format("reserve_pool_timeout")
                    + "): clients give up before a connection can be granted");
        }
        long coordinatorWait = s.nanos("db_reserve_pool_timeout");
        if (wait > 0 && coordinatorWait > 0 && wait < coordinatorWait) {
            warnings.add(file + ": query_wait_timeout (" + s.format("query_wait_timeout")
                    + ") is less than db_reserve_pool_timeout (" + s.format("db_reserve_pool_timeout")
                    + "): clients give up before the coordinator answers and see wait timeouts"
                    + " instead of the \"in use\" error");
        }
        long floor = s.nanos("min_connection_lifetime");
        if (s.intValue("max_db_connections") > 0 && wait > 0 && wait < floor) {
            warnings.add(file + ": query_wait_timeout (" + s.format("query_wait_timeout")
                    + ") is less than min_connection_lifetime (" + s.format("min_connection_lifetime")
                    + "): a full database may refuse clients whose slot is held by a younger idle connection");
        }
    }

    static ConfigSnapshot applySet(ConfigSnapshot snap, String key, String value) throws ConfigException {
        ConfigKey k = ConfigKeys.find(key.strip()).orElseThrow(
                () -> new ConfigException("unknown parameter: pgbouncer/" + key.strip()));
        if (!k.changeable()) {
            throw new ConfigException("parameter " + k.name() + " cannot be changed at run time (needs a restart)");
        }
        Object v;
        try {
            v = Settings.parse(k, value.strip());
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
        Settings settings = snap.settings().with(k, v);
        Optional<AuthFile> authFile = snap.authFile();
        if (k.name().equals("auth_file")) {
            authFile = readAuthFile(settings, snap.workingDir(), null, null);
        }
        Optional<HbaRules> hba = snap.hba();
        if (k.name().equals("auth_type") || k.name().equals("auth_hba_file") || k.name().equals("auth_ident_file")) {
            hba = readHba(settings, snap.workingDir(), null, null, null, List.of());
        }
        return new ConfigSnapshot(snap.source(), snap.workingDir(), settings, snap.databases(),
                snap.fallback(), snap.users(), snap.peers(), authFile, hba, snap.warnings());
    }

    private static Optional<AuthFile> readAuthFile(Settings settings, Path workingDir, IniLine where,
                                                   LenientFiles lenient) throws ConfigException {
        String name = settings.string("auth_file");
        if (name.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(AuthFileParser.read(workingDir.resolve(name), name));
        } catch (AuthFileException e) {
            if (lenient != null) {
                return lenient.auth(e);
            }
            if (e.line() == 0 && where != null) {
                throw error(where, e.what()); // missing file: point at the auth_file line
            }
            if (e.line() == 0) {
                throw new ConfigException(e.what());
            }
            throw new ConfigException(e.file(), e.line(), e.what());
        }
    }

    /**
     * PgBouncer reads the hba file (and auth_ident_file, whose maps its lines name) only with
     * auth_type = hba; then the hba file is required.
     */
    private static Optional<HbaRules> readHba(Settings settings, Path workingDir, IniLine where, IniLine identWhere,
                                              LenientFiles lenient, List<String> warnings) throws ConfigException {
        if (!settings.string("auth_type").equals("hba")) {
            return Optional.empty();
        }
        String name = settings.string("auth_hba_file");
        if (name.isEmpty()) {
            String what = "auth_type = hba needs auth_hba_file";
            if (lenient != null) {
                lenient.errors().accept(what + "; every login is rejected");
                return Optional.of(new HbaRules("", List.of()));
            }
            throw where != null ? error(where, what) : new ConfigException(what);
        }
        IdentMaps idents = IdentMaps.NONE;
        String identName = settings.string("auth_ident_file");
        try {
            if (!identName.isEmpty()) {
                idents = IdentParser.read(workingDir.resolve(identName), identName);
            }
        } catch (HbaException e) {
            if (lenient == null) {
                // a missing ident file: point at the auth_ident_file line
                throw e.line() == 0 && identWhere != null ? error(identWhere, e.what())
                        : e.line() == 0 ? new ConfigException(e.what()) : new ConfigException(e.file(), e.line(), e.what());
            }
            lenient.errors().accept(e.what()); // the hba lines that name its maps are skipped below
        }
        Path file = workingDir.resolve(name);
        try {
            return Optional.of(lenient == null ? HbaParser.read(file, name, idents)
                    : HbaParser.readSkipping(file, name, idents, lenient.skipped(warnings)));
        } catch (HbaException e) {
            if (lenient != null) {
                return lenient.noRules(name, e.what());
            }
            if (e.line() == 0) {
                throw where != null ? error(where, e.what()) : new ConfigException(e.what());
            }
            throw new ConfigException(e.file(), e.line(), e.what());
        }
    }

    private static ConfigException error(IniLine l, String what) {
        return new ConfigException(l.file(), l.line(), what);
    }

    private static String place(IniLine l) {
        return l.file() + ":" + l.line() + ": ";
    }
}
