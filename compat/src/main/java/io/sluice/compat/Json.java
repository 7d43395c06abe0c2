package io.sluice.compat;

import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A minimal JSON writer for the report: maps (insertion order kept), lists, strings, numbers,
 * booleans and null. Non-finite numbers become null. Stateless.
 */
final class Json {
    private Json() {}

    static String write(Object value) {
        StringBuilder b = new StringBuilder();
        write(b, value, "");
        return b.toString();
    }

    private static void write(StringBuilder b, Object v, String indent) {
        if (v == null) {
            b.append("null");
        } else if (v instanceof String s) {
            string(b, s);
        } else if (v instanceof Double d) {
            b.append(Double.isFinite(d) ? String.format(Locale.ROOT, "%.4f", d).replaceAll("0+$", "").replaceAll("\\.$", "") : "null");
        } else if (v instanceof Number || v instanceof Boolean) {
            b.append(v);
        } else if (v instanceof Map<?, ?> m) {
            String inner = indent + "  ";
            b.append('{');
            Iterator<? extends Map.Entry<?, ?>> it = m.entrySet().iterator();
            while (it.hasNext()) {
                Map.Entry<?, ?> e = it.next();
                b.append('\n').append(inner);
                string(b, String.valueOf(e.getKey()));
                b.append(": ");
                write(b, e.getValue(), inner);
                if (it.hasNext()) {
                    b.append(',');
                }
            }
            b.append(m.isEmpty() ? "}" : "\n" + indent + "}");
        } else if (v instanceof List<?> l) {
            b.append('[');
            for (int i = 0; i < l.size(); i++) {
                if (i > 0) {
                    b.append(", ");
                }
                write(b, l.get(i), indent);
            }
            b.append(']');
        } else {
            throw new IllegalArgumentException("not JSON: " + v.getClass());
        }
    }

    private static void string(StringBuilder b, String s) {
        b.append('"');
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case '<' -> b.append("\\u003c"); // keeps "</script>" out of the HTML report
                default -> {
                    if (ch < 0x20) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) ch));
                    } else {
                        b.append(ch);
                    }
                }
            }
        }
        b.append('"');
    }
}
