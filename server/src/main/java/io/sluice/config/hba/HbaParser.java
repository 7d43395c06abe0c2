package io.sluice.config.hba;

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

/**
 * Reads PgBouncer's auth_hba_file: {@code local DB USER METHOD [opts]} and
 * {@code host|hostssl|hostnossl DB USER ADDR METHOD [opts]}, where DB and USER are comma
 * lists of names ({@code "quoted"} names are literal), {@code all}, {@code sameuser}
 * (DB only), {@code replication} (DB only; Sluice has no replication connections, so it
 * never matches) and {@code @file} (names listed in a file next to the hba file); ADDR is
 * {@code all}, {@code addr/prefix} or {@code addr mask} with literal IPv4/IPv6 addresses.
 * {@code #} starts a comment. Any malformed line fails the file. Stateless.
 */
public final class HbaParser {

    private record Item(String text, boolean quoted) {
    }

    private HbaParser() {
    }

    /** Reads {@code file}; {@code name} is how messages name it. */
    public static HbaRules read(Path file, String name) throws HbaException {
        try {
            return parse(name, Files.readString(file, StandardCharsets.UTF_8), file.toAbsolutePath().getParent());
        } catch (IOException e) {
            throw new HbaException(name, 0, "could not open auth_hba_file " + name + ": " + e.getMessage());
        }
    }

    /** Parses hba text; {@code @file} names resolve against {@code dir}. */
    public static HbaRules parse(String name, String text, Path dir) throws HbaException {
        List<HbaRule> rules = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            List<List<Item>> fields = fields(lines[i], name, i + 1);
            if (!fields.isEmpty()) {
                rules.add(rule(fields, name, i + 1, dir));
            }
        }
        return new HbaRules(name, rules);
    }

    private static HbaRule rule(List<List<Item>> f, String name, int line, Path dir) throws HbaException {
        HbaRule.Type type = switch (word(f.get(0))) {
            case "local" -> HbaRule.Type.LOCAL;
            case "host" -> HbaRule.Type.HOST;
            case "hostssl" -> HbaRule.Type.HOSTSSL;
            case "hostnossl" -> HbaRule.Type.HOSTNOSSL;
            default -> throw new HbaException(name, line, "unknown connection type: " + word(f.get(0)));
        };
        int need = type == HbaRule.Type.LOCAL ? 4 : 5;
        if (f.size() < need) {
            throw new HbaException(name, line, "hba line has too few fields");
        }
        Set<String> dbs = new HashSet<>();
        boolean allDbs = false;
        boolean sameUser = false;
        for (Item it : expand(f.get(1), dir, name, line)) {
            if (!it.quoted && it.text.equals("all")) {
                allDbs = true;
            } else if (!it.quoted && it.text.equals("sameuser")) {
                sameUser = true;
            } else if (!(!it.quoted && it.text.equals("replication"))) {
                dbs.add(it.text);
            }
        }
        Set<String> users = new HashSet<>();
        boolean allUsers = false;
        for (Item it : expand(f.get(2), dir, name, line)) {
            if (!it.quoted && it.text.equals("all")) {
                allUsers = true;
            } else {
                users.add(it.text);
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
                    addr = literal(a.substring(0, slash), name, line);
                    prefix = prefixLength(a.substring(slash + 1), addr, name, line);
                } else {
                    addr = literal(a, name, line);
                    if (pos >= f.size()) {
                        throw new HbaException(name, line, "hba line has too few fields");
                    }
                    prefix = maskBits(literal(word(f.get(pos++)), name, line), name, line);
                }
            }
        }
        if (pos >= f.size()) {
            throw new HbaException(name, line, "hba line has too few fields");
        }
        String m = word(f.get(pos++));
        HbaMethod method = HbaMethod.fromConfig(m)
                .orElseThrow(() -> new HbaException(name, line, "unsupported auth method: " + m));
        Map<String, String> options = new HashMap<>();
        for (; pos < f.size(); pos++) {
            String o = word(f.get(pos));
            int eq = o.indexOf('=');
            if (eq <= 0) {
                throw new HbaException(name, line, "invalid option: " + o);
            }
            options.put(o.substring(0, eq), o.substring(eq + 1));
        }
        return new HbaRule(type, allDbs, sameUser, dbs, allUsers, users, addr, prefix, method, options, line);
    }

    /** Replaces {@code @file} items by the names listed in that file. */
    private static List<Item> expand(List<Item> items, Path dir, String name, int line) throws HbaException {
        List<Item> out = new ArrayList<>();
        for (Item it : items) {
            if (!it.quoted && it.text.startsWith("@")) {
                Path p = dir.resolve(it.text.substring(1));
                try {
                    for (String n : Files.readString(p, StandardCharsets.UTF_8).split("[,\\s]+")) {
                        if (!n.isEmpty() && !n.startsWith("#")) {
                            out.add(new Item(n, true));
                        }
                    }
                } catch (IOException e) {
                    throw new HbaException(name, line, "could not read " + it.text + ": " + e.getMessage());
                }
            } else {
                out.add(it);
            }
        }
        return out;
    }

    /** Splits a line into fields (whitespace) of comma-separated items, honouring quotes. */
    private static List<List<Item>> fields(String s, String name, int line) throws HbaException {
        List<List<Item>> fields = new ArrayList<>();
        List<Item> cur = null;
        StringBuilder tok = new StringBuilder();
        boolean quoted = false;
        boolean inQuote = false;
        boolean continues = false; // last item ended with a comma: next token joins this field
        int i = 0;
        while (i <= s.length()) {
            char c = i < s.length() ? s.charAt(i) : '\n';
            if (inQuote) {
                if (c == '\n') {
                    throw new HbaException(name, line, "unterminated quoted string");
                }
                if (c == '"') {
                    inQuote = false;
                } else {
                    tok.append(c);
                }
            } else if (c == '"') {
                inQuote = true;
                quoted = true;
            } else if (c == '#' || c == '\n' || c == ' ' || c == '\t' || c == '\r' || c == ',') {
                if (tok.length() > 0 || quoted) {
                    if (cur == null || !continues) {
                        cur = new ArrayList<>();
                        fields.add(cur);
                    }
                    cur.add(new Item(tok.toString(), quoted));
                    tok.setLength(0);
                    quoted = false;
                    continues = false;
                }
                if (c == ',') {
                    continues = true;
                }
                if (c == '#') {
                    break;
                }
            } else {
                tok.append(c);
            }
            i++;
        }
        return fields;
    }

    private static String word(List<Item> field) {
        return field.get(0).text;
    }

    private static InetAddress literal(String s, String name, int line) throws HbaException {
        if (!s.matches("[0-9.]+") && !s.matches("[0-9a-fA-F:.]*:[0-9a-fA-F:.]*")) {
            throw new HbaException(name, line, "not supported: host names in hba address: " + s);
        }
        try {
            return InetAddress.getByName(s); // a literal: no DNS lookup happens
        } catch (UnknownHostException e) {
            throw new HbaException(name, line, "invalid IP address: " + s);
        }
    }

    private static int prefixLength(String s, InetAddress addr, String name, int line) throws HbaException {
        try {
            int p = Integer.parseInt(s);
            if (p < 0 || p > addr.getAddress().length * 8) {
                throw new NumberFormatException();
            }
            return p;
        } catch (NumberFormatException e) {
            throw new HbaException(name, line, "invalid CIDR mask: " + s);
        }
    }

    private static int maskBits(InetAddress mask, String name, int line) throws HbaException {
        int bits = 0;
        boolean zero = false;
        for (byte b : mask.getAddress()) {
            for (int k = 7; k >= 0; k--) {
                boolean one = (b >> k & 1) == 1;
                if (one && zero) {
                    throw new HbaException(name, line, "invalid IP mask: " + mask.getHostAddress());
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
