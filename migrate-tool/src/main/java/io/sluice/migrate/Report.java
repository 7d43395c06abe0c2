package io.sluice.migrate;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Findings and recommendations collected by one command, rendered as text for a terminal or
 * as JSON for scripts. Not thread-safe: one command builds it on one thread.
 */
public final class Report {
    private final String title;
    private final Map<String, String> facts = new LinkedHashMap<>();
    private final List<Finding> findings = new ArrayList<>();
    private final List<Recommendation> recommendations = new ArrayList<>();

    public Report(String title) {
        this.title = title;
    }

    /** A named figure shown at the top (source file, output file, server version ...). */
    public void fact(String name, String value) {
        facts.put(name, value);
    }

    public void add(Finding f) {
        if (!findings.contains(f)) {
            findings.add(f);
        }
    }

    public void add(Severity s, String topic, String key, String where, String message) {
        add(new Finding(s, topic, key, where, message));
    }

    public void recommend(Recommendation r) {
        recommendations.add(r);
    }

    public List<Finding> findings() {
        return List.copyOf(findings);
    }

    public List<Recommendation> recommendations() {
        return List.copyOf(recommendations);
    }

    /** The gravest severity present, or null when there are no findings above INFO. */
    public Severity worst() {
        return findings.stream().map(Finding::severity).filter(s -> s != Severity.INFO)
                .max(Comparator.naturalOrder()).orElse(null);
    }

    public long count(Severity s) {
        return findings.stream().filter(f -> f.severity() == s).count();
    }

    /** Text for a terminal: facts, findings gravest first, recommendations, a summary line. */
    public String text() {
        StringBuilder b = new StringBuilder();
        b.append(title).append('\n');
        facts.forEach((k, v) -> b.append("  ").append(k).append(": ").append(v).append('\n'));
        List<Finding> sorted = new ArrayList<>(findings);
        sorted.sort(Comparator.comparing(Finding::severity).reversed());
        if (!sorted.isEmpty()) {
            b.append('\n');
        }
        for (Finding f : sorted) {
            b.append(f.severity().name().toLowerCase()).append(": [").append(f.topic()).append("] ");
            if (!f.where().isEmpty()) {
                b.append(f.where()).append(": ");
            }
            if (!f.key().isEmpty()) {
                b.append(f.key()).append(": ");
            }
            b.append(f.message()).append('\n');
        }
        if (!recommendations.isEmpty()) {
            b.append("\nrecommended values (capacity rules):\n");
            for (Recommendation r : recommendations) {
                b.append("  ").append(r.key()).append(" = ").append(r.recommended())
                        .append("   (now ").append(r.current()).append("; ").append(r.reason()).append(")\n");
            }
        }
        b.append('\n').append(count(Severity.ERROR)).append(" error(s), ")
                .append(count(Severity.WARNING)).append(" warning(s), ")
                .append(count(Severity.INFO)).append(" note(s)\n");
        return b.toString();
    }

    /** The same content as one JSON object. */
    public String json() {
        StringBuilder b = new StringBuilder("{\n  \"title\": ").append(Json.str(title)).append(",\n  \"facts\": {");
        String sep = "";
        for (Map.Entry<String, String> e : facts.entrySet()) {
            b.append(sep).append("\n    ").append(Json.str(e.getKey())).append(": ").append(Json.str(e.getValue()));
            sep = ",";
        }
        b.append(facts.isEmpty() ? "},\n" : "\n  },\n").append("  \"findings\": [");
        sep = "";
        for (Finding f : findings) {
            b.append(sep).append("\n    {\"severity\": ").append(Json.str(f.severity().name().toLowerCase()))
                    .append(", \"topic\": ").append(Json.str(f.topic()))
                    .append(", \"key\": ").append(Json.str(f.key()))
                    .append(", \"where\": ").append(Json.str(f.where()))
                    .append(", \"message\": ").append(Json.str(f.message())).append('}');
            sep = ",";
        }
        b.append(findings.isEmpty() ? "],\n" : "\n  ],\n").append("  \"recommendations\": [");
        sep = "";
        for (Recommendation r : recommendations) {
            b.append(sep).append("\n    {\"key\": ").append(Json.str(r.key()))
                    .append(", \"current\": ").append(Json.str(r.current()))
                    .append(", \"recommended\": ").append(Json.str(r.recommended()))
                    .append(", \"reason\": ").append(Json.str(r.reason())).append('}');
            sep = ",";
        }
        b.append(recommendations.isEmpty() ? "],\n" : "\n  ],\n");
        b.append("  \"errors\": ").append(count(Severity.ERROR))
                .append(",\n  \"warnings\": ").append(count(Severity.WARNING)).append("\n}\n");
        return b.toString();
    }
}
