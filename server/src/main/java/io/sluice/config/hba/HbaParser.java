package io.sluice.config.hba;

import io.sluice.config.FileErrors;
import io.sluice.config.hba.HbaTokens.Item;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Reads PgBouncer's auth_hba_file: {@code local DB USER METHOD [map=M]} and
 * {@code host|hostssl|hostnossl DB USER ADDR METHOD [map=M]}, where DB and USER are comma
 * lists of names ({@code "quoted"} names are literal), {@code all}, {@code sameuser}
 * (DB only), {@code replication} (DB only; Sluice has no replication connections, so it
 * never matches) and {@code @file} (names listed in a file next to the file that names it);
 * ADDR is {@code all}, {@code addr/prefix} or {@code addr mask} with literal IPv4/IPv6
 * addresses; {@code map=} names a map of the auth_ident_file. What PgBouncer lacks
 * ({@code +group}, {@code samerole}, {@code samegroup}, host names, other options) is refused
 * by name instead of being read as a literal. A line that cannot be read fails the whole file
 * (the migrate tool's check, console SET); at start and on RELOAD ({@link #readSkipping}) it is
 * skipped with a warning, as PgBouncer skips it, so a file PgBouncer takes Sluice takes. Stateless.
 */
public final class HbaParser {
    /** @file may name further @files; deeper nesting than this is surely a loop. */
    private static final int MAX_INCLUDE_DEPTH = 10;

    private HbaParser() {
    }

    /** Reads {@code file} without ident maps; {@code name} is how messages name it. */
    public static HbaRules read(Path file, String name) throws HbaException {
        return read(file, name, IdentMaps.NONE);
    }

    /** Reads {@code file}; {@code map=} options must name maps of {@code idents}. */
    public static HbaRules read(Path file, String name, IdentMaps idents) throws HbaException {
        try {
            return parse(name, Files.readString(file, StandardCharsets.UTF_8), file.toAbsolutePath().getParent(), idents);
        } catch (IOException e) {
            throw new HbaException(name, 0, "could not open hba config file " + name + ": " + FileErrors.reason(e));
        }
    }

    /** Parses hba text; {@code @file} names resolve against {@code dir}. */
    public static HbaRules parse(String name, String text, Path dir) throws HbaException {
        return parse(name, text, dir, IdentMaps.NONE);
    }

    public static HbaRules parse(String name, String text, Path dir, IdentMaps idents) throws HbaException {
        return parse(name, text, dir, idents, null);
    }

    /**
     * Reads {@code file} as PgBouncer does at start: a line that cannot be read goes to
     * {@code skipped} and the rest still count.
     */
    public static HbaRules readSkipping(Path file, String name, IdentMaps idents, Consumer<HbaException> skipped)
            throws HbaException {
        try {
            return parse(name, Files.readString(file, StandardCharsets.UTF_8), file.toAbsolutePath().getParent(),
                    idents, skipped);
        } catch (IOException e) {
            throw new HbaException(name, 0, "could not open hba config file " + name + ": " + FileErrors.reason(e));
        }
    }

    /** {@code skipped} null: the first bad line fails the file. */
    private static HbaRules parse(String name, String text, Path dir, IdentMaps idents, Consumer<HbaException> skipped)
            throws HbaException {
        List<HbaRule> rules = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            try {
                List<List<Item>> fields = HbaTokens.fields(lines[i], name, i + 1);
                if (!fields.isEmpty()) {
                    rules.add(new Line(name, i + 1, dir, idents).rule(fields));
                }
            } catch (HbaException e) {
                if (skipped == null) {
                    throw e;
                }
                skipped.accept(e);
            }
        }
        return new HbaRules(name, rules, idents);
    }

    /** One line being read: where it is, for messages and @file names. */
    private record Line(String name, int line, Path dir, IdentMaps idents) {

        HbaException error(String what) {
            return new HbaException(name, line, what);
        }

        HbaRule rule(List<List<Item>> f) throws HbaException {
            HbaRule.Type type = switch (word(f.get(0))) {
                case "local" -> HbaRule.Type.LOCAL;
                case "host" -> HbaRule.Type.HOST;
                case "hostssl" -> HbaRule.Type.HOSTSSL;
                case "hostnossl" -> HbaRule.Type.HOSTNOSSL;
                default -> throw error("unknown connection type: " + word(f.get(0)));
            };
            int need = type == HbaRule.Type.LOCAL ? 4 : 5;
            if (f.size() < need) {
                throw error("hba line has too few fields");
            }
            Set<String> dbs = new HashSet<>();
            boolean allDbs = false;
            boolean sameUser = false;
            for (Item it : expand(f.get(1), dir, 0)) {
                if (it.is("all")) {
                    allDbs = true;
                } else if (it.is("sameuser")) {
                    sameUser = true;
                } else if (it.is("samerole") || it.is("samegroup")) {
                    throw error("not supported: " + it.text() + " in hba database field");
                } else if (!it.is("replication")) {
                    dbs.add(it.text());
                }
            }
            Set<String> users = new HashSet<>();
            boolean allUsers = false;
            for (Item it : expand(f.get(2), dir, 0)) {
                if (it.is("all")) {
                    allUsers = true;
                } else if (!it.quoted() && it.text().startsWith("+")) {
                    throw error("not supported: +group in hba user field: " + it.text());
                } else {
                    users.add(it.text());
                }
            }
            int pos = 3;
            InetAddress addr = null;
            int prefix = 0;
            if (type != HbaRule.Type.LOCAL) {
                String a = word(f.get(pos++));
                if (!a.equals("all")) {
                    int slash = a.indexOf('/');
                    if (slash >= 0) {
                        addr = literal(a.substring(0, slash));
                        prefix = prefixLength(a.substring(slash + 1), addr);
                    } else {
                        addr = literal(a);
                        if (pos >= f.size()) {
                            throw error("hba line has too few fields");
                        }
                        InetAddress mask = literal(word(f.get(pos++)));
                        if (mask.getAddress().length != addr.getAddress().length) {
                            throw error("invalid IP mask: " + mask.getHostAddress());
                        }
                        prefix = maskBits(mask);
                    }
                }
            }
            if (pos >= f.size()) {
                throw error("hba line has too few fields");
            }
            String m = word(f.get(pos++));
            HbaMethod method = HbaMethod.fromConfig(m).orElseThrow(() -> error("unsupported auth method: " + m));
            Map<String, String> options = new HashMap<>();
            for (; pos < f.size(); pos++) {
                String o = word(f.get(pos));
                if (!o.startsWith("map=") || o.length() == 4) {
                    throw error("unsupported hba option (only map=name is): " + o);
                }
                String map = o.substring(4);
                if (!idents.has(map)) {
                    throw error("ident map " + map + " is not found in auth_ident_file");
                }
                options.put("map", map);
            }
            return new HbaRule(type, allDbs, sameUser, dbs, allUsers, users, addr, prefix, method, options, line);
        }

        /** Replaces {@code @file} items by the names listed in that file (keywords act as on the line). */
        private List<Item> expand(List<Item> items, Path base, int depth) throws HbaException {
            List<Item> out = new ArrayList<>();
            for (Item it : items) {
                if (it.quoted() || !it.text().startsWith("@")) {
                    out.add(it);
                    continue;
                }
                if (depth >= MAX_INCLUDE_DEPTH) {
                    throw error("@file nested too deeply: " + it.text());
                }
                Path p = base.resolve(it.text().substring(1));
                String text;
                try {
                    text = Files.readString(p, StandardCharsets.UTF_8);
                } catch (IOException e) {
                    throw error("could not read " + it.text() + ": " + e.getMessage());
                }
                int n = 0;
                for (String l : text.split("\n", -1)) {
                    for (List<Item> field : HbaTokens.fields(l, p.toString(), ++n)) {
                        out.addAll(expand(field, p.toAbsolutePath().getParent(), depth + 1));
                    }
                }
            }
            return out;
        }

        private InetAddress literal(String s) throws HbaException {
            if (s.equals("samehost") || s.equals("samenet")) {
                throw error("not supported: " + s + " in hba address");
            }
            if (!s.matches("[0-9.]+") && !s.matches("[0-9a-fA-F:.]*:[0-9a-fA-F:.]*")) {
                throw error("not supported: host names in hba address: " + s);
            }
            try {
                return InetAddress.getByName(s); // a literal: no DNS lookup happens
            } catch (UnknownHostException e) {
                throw error("invalid IP address: " + s);
            }
        }

        private int prefixLength(String s, InetAddress addr) throws HbaException {
            try {
                int p = Integer.parseInt(s);
                if (p < 0 || p > addr.getAddress().length * 8) {
                    throw new NumberFormatException();
                }
                return p;
            } catch (NumberFormatException e) {
                throw error("invalid CIDR mask: " + s);
            }
        }

        private int maskBits(InetAddress mask) throws HbaException {
            int bits = 0;
            boolean zero = false;
            for (byte b : mask.getAddress()) {
                for (int k = 7; k >= 0; k--) {
                    boolean one = (b >> k & 1) == 1;
                    if (one && zero) {
                        throw error("invalid IP mask: " + mask.getHostAddress());
                    }
                    if (one) {
                        bits++;
                    } else {
                        zero = true;
                    }
                }
            }
            return bits;
        }
    }

    private static String word(List<Item> field) {
        return field.get(0).text();
    }
}
