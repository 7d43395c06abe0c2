package io.sluice;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;

/** Fuzz input as text that often contains the words a parser looks for, so the fuzzer gets past them sooner. */
public final class FuzzText {
    private FuzzText() {
    }

    /** Up to {@code maxParts} hint words each followed by fuzzed text, then the rest of the input. */
    public static String withHints(FuzzedDataProvider data, String[] hints, int maxParts, int maxLength) {
        StringBuilder text = new StringBuilder();
        int parts = data.consumeInt(0, maxParts);
        for (int i = 0; i < parts; i++) {
            text.append(data.pickValue(hints)).append(data.consumeString(maxLength));
        }
        return text.append(data.consumeRemainingAsString()).toString();
    }
}
