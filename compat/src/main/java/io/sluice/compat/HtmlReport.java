package io.sluice.compat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The self-contained HTML report: one page, its data inlined as JSON, charts drawn as SVG by
 * the page's own script (no network, no external files). Stateless.
 */
final class HtmlReport {
    private HtmlReport() {}

    static String render(String json) {
        try (InputStream in = HtmlReport.class.getResourceAsStream("report-template.html")) {
            if (in == null) {
                throw new IllegalStateException("report-template.html missing from the jar");
            }
            String template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            // Json escapes '<', so the data cannot close the script element it sits in.
            return template.replace("__DATA__", json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
