package io.sluice.config;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Values of every key in {@link ConfigKeys}, canonical as {@link ValueCodec} produces them.
 * Immutable; {@link #with} returns a copy. Typed getters take the lower-case key name and
 * fail with IllegalArgumentException on a name that is not in the table or has another type
 * (a programming error, not a config error).
 */
public final class Settings {

    private final Map<String, Object> values;

    private Settings(Map<String, Object> values) {
        this.values = Collections.unmodifiableMap(values);
    }

    /** Every key at its default. */
    public static Settings defaults() {
        Map<String, Object> m = new HashMap<>();
        for (ConfigKey k : ConfigKeys.all()) {
            if (k.defaultValue().isEmpty() && k.type() != KeyType.STRING
                    && k.type() != KeyType.LIST) {
                m.put(k.name(), 0L); // unset int default (verbose): C zero-initialised
                continue;
            }
            Object v = ValueCodec.parse(k, k.defaultValue())
                    .orElseThrow(() -> new IllegalStateException("bad default for " + k.name()));
            m.put(k.name(), v);
        }
        return new Settings(m);
    }

    /** Parses {@code raw} for {@code key} and checks Sluice's limits; error text on failure. */
    static Object parse(ConfigKey key, String raw) {
        Object v = ValueCodec.parse(key, raw).orElseThrow(() -> new IllegalArgumentException(
                "invalid value \"" + raw + "\" for parameter " + key.name()));
        SupportRules.refuse(key, v).ifPresent(msg -> {
            throw new IllegalArgumentException(msg);
        });
        return v;
    }

    /** A copy with one canonical value replaced. */
    public Settings with(ConfigKey key, Object canonical) {
        Map<String, Object> m = new HashMap<>(values);
        m.put(key.name(), canonical);
        return new Settings(m);
    }

    /** The canonical value of a key. */
    public Object value(String name) {
        Object v = values.get(name);
        if (v == null) {
            throw new IllegalArgumentException("no such key: " + name);
        }
        return v;
    }

    /** The value as SHOW CONFIG prints it. */
    public String format(String name) {
        return ValueCodec.format(ConfigKeys.get(name), value(name));
    }

    /** INT, BOOL or MODE value. */
    public long integer(String name) {
        return (Long) typed(name, KeyType.INT, KeyType.BOOL, KeyType.MODE);
    }

    /** INT value known to fit an int. */
    public int intValue(String name) {
        return Math.toIntExact(integer(name));
    }

    /** BOOL value: non-zero is true. */
    public boolean flag(String name) {
        return (Long) typed(name, KeyType.BOOL) != 0;
    }

    /** TIME value. */
    public Duration duration(String name) {
        return Duration.of((Long) typed(name, KeyType.TIME), ChronoUnit.MICROS);
    }

    /** TIME value in nanoseconds (the unit the pool engine uses). */
    public long nanos(String name) {
        return (Long) typed(name, KeyType.TIME) * 1000L;
    }

    /** STRING, ENUM or LIST value as written. */
    public String string(String name) {
        return (String) typed(name, KeyType.STRING, KeyType.ENUM, KeyType.LIST);
    }

    /** LIST value split on commas and whitespace, empty items dropped. */
    public List<String> list(String name) {
        String s = (String) typed(name, KeyType.LIST);
        return splitList(s);
    }

    /** Splits a comma/whitespace separated list like PgBouncer's strlist parsing. */
    public static List<String> splitList(String s) {
        return Arrays.stream(s.split("[,\\s]+")).filter(x -> !x.isEmpty()).toList();
    }

    private Object typed(String name, KeyType... types) {
        ConfigKey k = ConfigKeys.get(name);
        for (KeyType t : types) {
            if (k.type() == t) {
                return value(name);
            }
        }
        throw new IllegalArgumentException(name + " is " + k.type());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Settings s && s.values.equals(values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }
}
