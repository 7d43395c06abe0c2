package io.sluice.backend;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * A server's session parameters as it reported them (ParameterStatus), and which client values
 * were last found to need no SET here. Every server switch in transaction pooling compares the
 * client's tracked values with these; with the clients of a pool sharing one set of values (the
 * rule), the note turns that walk of both maps into one reference compare. Any report drops the
 * note, so it never outlives the values it was checked against. Event loop only.
 */
public final class ServerParams {
    private final Map<String, String> values = new HashMap<>();
    private final Map<String, String> view = Collections.unmodifiableMap(values);
    /** The client values (an interned, unchanging object) that needed no SET, or null. */
    private Object matched;

    /** A ParameterStatus from the server. */
    public void reported(String name, String value) {
        values.put(name, value);
        matched = null;
    }

    /** Read-only; name and value as the server reported them. */
    public Map<String, String> values() {
        return view;
    }

    /** Whether {@code clientValues} were found to need no SET here since the last report. */
    public boolean matches(Object clientValues) {
        return clientValues != null && matched == clientValues;
    }

    /** {@code clientValues}, an object that does not change, need no SET here. */
    public void matched(Object clientValues) {
        matched = clientValues;
    }
}
