package io.sluice.tls;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Turns one side's protocol, cipher and curve settings (OpenSSL vocabulary, as PgBouncer
 * takes them) into what the TLS provider can do, plus a one-line warning for each value it
 * cannot honour exactly, naming the key and what is used instead. Values PgBouncer itself
 * would reject are errors with PgBouncer's words ({@code invalid client_tls_protocols: ...}).
 *
 * @param protocols enabled protocol names, in the provider's spelling
 * @param ciphers   suites to enable (TLS 1.2 and 1.3), or null for the provider's defaults
 * @param groups    key exchange groups to set, or null for the provider's defaults
 */
public record ProviderChoices(List<String> protocols, List<String> ciphers, List<String> groups,
                              List<String> warnings) {

    private static final Map<String, List<String>> PROTOCOL_WORDS = Map.of(
            "tlsv1.0", List.of("TLSv1"), "tlsv1.1", List.of("TLSv1.1"),
            "tlsv1.2", List.of("TLSv1.2"), "tlsv1.3", List.of("TLSv1.3"),
            "all", List.of("TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3"),
            "legacy", List.of("TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3"),
            "secure", List.of("TLSv1.2", "TLSv1.3"), "default", List.of("TLSv1.2", "TLSv1.3"));
    private static final Set<String> DEFAULT_CIPHER_WORDS = Set.of("default", "secure", "fast", "normal", "");
    private static final Set<String> ALL_CIPHER_WORDS = Set.of("all", "compat", "legacy", "insecure");
    private static final Map<String, String> CURVES = Map.ofEntries(
            Map.entry("prime256v1", "P-256"), Map.entry("secp256r1", "P-256"), Map.entry("p-256", "P-256"),
            Map.entry("secp384r1", "P-384"), Map.entry("p-384", "P-384"),
            Map.entry("secp521r1", "P-521"), Map.entry("p-521", "P-521"),
            Map.entry("x25519", "X25519"));

    public static ProviderChoices resolve(TlsSettings s, TlsProvider p) throws TlsSetupException {
        List<String> warnings = new ArrayList<>();
        List<String> protocols = protocols(s, p, warnings);
        List<String> tls12 = tls12Ciphers(s, p, warnings);
        List<String> tls13 = tls13Ciphers(s, p, warnings);
        List<String> ciphers = null;
        if (tls12 != null || tls13 != null) {
            ciphers = new ArrayList<>(tls13 != null ? tls13 : available(TlsProvider.TLS13_DEFAULT, p));
            ciphers.addAll(tls12 != null ? tls12 : p.ciphers().stream().filter(c -> !TlsProvider.isTls13Suite(c)).toList());
        }
        List<String> groups = s.prefix().startsWith("client") ? groups(s, p, warnings) : null;
        if (s.prefix().startsWith("client")) {
            dheParams(s, p, warnings);
        }
        return new ProviderChoices(protocols, ciphers, groups, warnings);
    }

    // libtls' parser: words separated by ',' or ':', '!' removes, a leading '!' starts from all
    private static List<String> protocols(TlsSettings s, TlsProvider p, List<String> warnings) throws TlsSetupException {
        Set<String> chosen = new LinkedHashSet<>();
        boolean first = true;
        for (String raw : s.protocols().split("[,:]")) {
            String word = raw.trim().toLowerCase(Locale.ROOT);
            if (word.isEmpty()) {
                continue;
            }
            boolean negate = word.startsWith("!");
            word = negate ? word.substring(1).trim() : word;
            List<String> names = PROTOCOL_WORDS.get(word);
            if (names == null) {
                throw new TlsSetupException("invalid " + s.key("protocols") + ": " + s.protocols());
            }
            if (negate && first) {
                chosen.addAll(PROTOCOL_WORDS.get("all"));
            }
            first = false;
            if (negate) {
                names.forEach(chosen::remove);
            } else {
                chosen.addAll(names);
            }
        }
        if (chosen.isEmpty()) {
            chosen.addAll(PROTOCOL_WORDS.get("secure"));
        }
        List<String> usable = chosen.stream().filter(p.protocols()::contains).toList();
        if (usable.isEmpty()) {
            throw new TlsSetupException("invalid " + s.key("protocols") + ": " + s.protocols()
                    + " (" + p.name() + " offers none of " + String.join(", ", chosen) + ")");
        }
        if (usable.size() < chosen.size()) {
            List<String> missing = chosen.stream().filter(x -> !usable.contains(x)).toList();
            warnings.add(s.key("protocols") + ": " + String.join(", ", missing) + " not available in " + p.name()
                    + "; using " + String.join(", ", usable));
        }
        return usable;
    }

    /** null: the provider's defaults. */
    private static List<String> tls12Ciphers(TlsSettings s, TlsProvider p, List<String> warnings) {
        String value = s.ciphers() == null ? "" : s.ciphers().trim();
        if (DEFAULT_CIPHER_WORDS.contains(value.toLowerCase(Locale.ROOT))) {
            return null;
        }
        List<String> supported12 = p.ciphers().stream().filter(c -> !TlsProvider.isTls13Suite(c)).toList();
        if (ALL_CIPHER_WORDS.contains(value.toLowerCase(Locale.ROOT))) {
            return supported12;
        }
        List<String> chosen = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        for (String token : value.split("[:, ]+")) {
            if (token.isEmpty()) {
                continue;
            }
            String match = supported12.stream()
                    .filter(c -> c.equals(token) || token.equals(CipherNames.openSsl(c)))
                    .findFirst().orElse(null);
            if (match == null) {
                unknown.add(token);
            } else if (!chosen.contains(match)) {
                chosen.add(match);
            }
        }
        if (!unknown.isEmpty()) {
            String instead = chosen.isEmpty() ? p.name() + "'s default suites"
                    : String.join(":", chosen.stream().map(CipherNames::openSsl).toList());
            warnings.add(s.key("ciphers") + ": " + String.join(":", unknown) + " cannot be used with " + p.name()
                    + " (OpenSSL cipher expressions are not evaluated); using " + instead + " instead");
        }
        return chosen.isEmpty() ? null : chosen;
    }

    /** null: the TLS 1.3 defaults. */
    private static List<String> tls13Ciphers(TlsSettings s, TlsProvider p, List<String> warnings) {
        String value = s.tls13Ciphers() == null ? "" : s.tls13Ciphers().trim();
        if (value.isEmpty()) {
            return null;
        }
        List<String> wanted = Arrays.stream(value.split("[:, ]+")).filter(t -> !t.isEmpty()).toList();
        List<String> fixed = available(TlsProvider.TLS13_DEFAULT, p);
        if (p.boringSsl()) {
            if (!Set.copyOf(wanted).equals(Set.copyOf(fixed))) {
                warnings.add(s.tls13CiphersKey() + ": " + p.name() + "'s TLS 1.3 suites cannot be configured; using "
                        + String.join(":", fixed));
            }
            return null;
        }
        List<String> usable = wanted.stream().filter(p.ciphers()::contains).toList();
        if (usable.size() < wanted.size()) {
            List<String> missing = wanted.stream().filter(w -> !usable.contains(w)).toList();
            List<String> used = usable.isEmpty() ? fixed : usable;
            warnings.add(s.tls13CiphersKey() + ": " + String.join(":", missing) + " not available in " + p.name()
                    + "; using " + String.join(":", used));
            return used;
        }
        return usable;
    }

    private static List<String> groups(TlsSettings s, TlsProvider p, List<String> warnings) throws TlsSetupException {
        String value = s.ecdhCurve() == null ? "auto" : s.ecdhCurve().trim();
        if (value.isEmpty() || value.equalsIgnoreCase("auto")) {
            return null;
        }
        if (value.equalsIgnoreCase("none")) {
            warnings.add(s.key("ecdhcurve") + "=none cannot be honoured: ECDHE stays enabled (TLS 1.3 needs it); using "
                    + p.name() + "'s default groups");
            return null;
        }
        List<String> groups = new ArrayList<>();
        for (String token : value.split("[:,]")) {
            String g = CURVES.get(token.trim().toLowerCase(Locale.ROOT));
            if (g == null) {
                throw new TlsSetupException("invalid " + s.key("ecdhcurve") + ": " + value);
            }
            groups.add(g);
        }
        if (!p.boringSsl()) {
            warnings.add(s.key("ecdhcurve") + "=" + value + " cannot be set per context with " + p.name()
                    + " on Java 17; using its default groups");
            return null;
        }
        return groups;
    }

    private static void dheParams(TlsSettings s, TlsProvider p, List<String> warnings) {
        String value = s.dheParams() == null ? "auto" : s.dheParams().trim().toLowerCase(Locale.ROOT);
        if (value.equals("auto") || value.equals("none")) {
            return; // the default, and what BoringSSL does anyway
        }
        warnings.add(s.key("dheparams") + "=" + s.dheParams() + " cannot be honoured: "
                + (p.boringSsl() ? p.name() + " has no DHE suites; ECDHE only" : p.name() + " uses its own DHE groups"));
    }

    private static List<String> available(List<String> names, TlsProvider p) {
        return names.stream().filter(p.ciphers()::contains).toList();
    }
}
