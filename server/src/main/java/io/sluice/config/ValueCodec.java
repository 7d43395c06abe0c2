package io.sluice.config;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Parses {@code [pgbouncer]} values the way PgBouncer's libusual setters do and prints them
 * the way its getters do (for SHOW CONFIG). Canonical values: {@code Long} for INT, BOOL and
 * MODE; {@code Long} microseconds for TIME; {@code String} for STRING, ENUM (canonical name)
 * and LIST. Stateless.
 */
public final class ValueCodec {

    /** strtod-like decimal number; PgBouncer's strtod_dot also takes hex floats, we do not. */
    private static final Pattern TIME =
            Pattern.compile("[+]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
    private static final long USEC = 1_000_000L;

    private ValueCodec() {
    }

    /** Parses {@code raw} for {@code key}; empty when PgBouncer would reject the value. */
    public static Optional<Object> parse(ConfigKey key, String raw) {
        switch (key.type()) {
            case STRING:
            case LIST:
                return Optional.of(raw);
            case ENUM:
                for (String name : key.allowed()) {
                    if (name.equalsIgnoreCase(raw)) {
                        return Optional.of(name);
                    }
                }
                return Optional.empty();
            case TIME:
                return parseTimeMicros(raw).map(v -> (Object) v);
            case INT:
            case BOOL:
            case MODE:
            default:
                return parseCInt(raw).filter(v -> inRange(key, v)).map(v -> (Object) v);
        }
    }

    /** The value as PgBouncer's SHOW CONFIG prints it. */
    public static String format(ConfigKey key, Object value) {
        switch (key.type()) {
            case TIME:
                return formatSeconds((Long) value);
            case INT:
            case BOOL:
            case MODE:
                return Long.toString((Long) value);
            default:
                return (String) value;
        }
    }

    /** Seconds with fractions to microseconds, truncating like {@code (usec_t)(USEC * v)}. */
    static Optional<Long> parseTimeMicros(String raw) {
        if (!TIME.matcher(raw).matches()) {
            return Optional.empty();
        }
        double v = Double.parseDouble(raw);
        if (Double.isInfinite(v) || v * USEC > Long.MAX_VALUE) {
            return Optional.empty();
        }
        return Optional.of((long) (USEC * v));
    }

    /**
     * C {@code strtol(s, &end, 0)} that must consume the whole string: optional sign, then
     * {@code 0x} hex, leading-{@code 0} octal, or decimal.
     */
    static Optional<Long> parseCInt(String raw) {
        String s = raw.strip();
        if (s.isEmpty()) {
            return Optional.empty();
        }
        boolean negative = false;
        int i = 0;
        if (s.charAt(0) == '+' || s.charAt(0) == '-') {
            negative = s.charAt(0) == '-';
            i = 1;
        }
        String body = s.substring(i);
        int radix = 10;
        if (body.length() > 2 && (body.startsWith("0x") || body.startsWith("0X"))) {
            radix = 16;
            body = body.substring(2);
        } else if (body.length() > 1 && body.charAt(0) == '0') {
            radix = 8;
            body = body.substring(1);
        }
        if (body.isEmpty() || body.charAt(0) == '+' || body.charAt(0) == '-') {
            return Optional.empty();
        }
        try {
            long v = Long.parseLong(body, radix);
            return Optional.of(negative ? -v : v);
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static boolean inRange(ConfigKey key, long v) {
        if (key.name().equals("max_packet_size")) {
            return v >= 0 && v <= 0xFFFF_FFFFL; // CF_UINT
        }
        if (key.name().equals("peer_id")) {
            return v >= 0 && v <= 16383;
        }
        return v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE;
    }

    /** C {@code printf("%g", micros / 1e6)}: 6 significant digits, trailing zeros dropped. */
    public static String formatSeconds(long micros) {
        double d = (double) micros / USEC;
        if (d == 0) {
            return "0";
        }
        BigDecimal bd = new BigDecimal(d).round(new MathContext(6, RoundingMode.HALF_EVEN));
        int exponent = bd.precision() - bd.scale() - 1;
        if (exponent < -4 || exponent >= 6) {
            BigDecimal mantissa = bd.movePointLeft(exponent);
            String m = stripZeros(mantissa.setScale(5, RoundingMode.HALF_EVEN).toPlainString());
            String sign = exponent < 0 ? "-" : "+";
            return String.format(Locale.ROOT, "%se%s%02d", m, sign, Math.abs(exponent));
        }
        return stripZeros(bd.setScale(Math.max(0, 5 - exponent), RoundingMode.HALF_EVEN).toPlainString());
    }

    private static String stripZeros(String s) {
        if (s.indexOf('.') < 0) {
            return s;
        }
        int end = s.length();
        while (s.charAt(end - 1) == '0') {
            end--;
        }
        if (s.charAt(end - 1) == '.') {
            end--;
        }
        return s.substring(0, end);
    }
}
