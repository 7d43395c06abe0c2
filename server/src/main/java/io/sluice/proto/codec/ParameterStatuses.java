package io.sluice.proto.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;

import java.util.Map;

/**
 * Server parameters with each one's ParameterStatus message encoded once. A pool greets every
 * new client with the same values, so its greeting is copied, not encoded, on each login, as
 * PgBouncer keeps its pool's welcome message encoded. Its values never change; it also keeps
 * what a reader worked out from them once ({@link #derived}).
 */
public final class ParameterStatuses {
    private final Map<String, String> params;
    private final String[] names;
    private final String[] values;
    private final byte[][] messages;
    /**
     * What a reader worked out once from these values for every login greeted with them (the
     * session's tracked parameters among them); null until set. Unchanging values, so a reader
     * only has to check that what it finds was worked out for its own question.
     */
    private volatile Object derived;

    private ParameterStatuses(Map<String, String> params) {
        this.params = params;
        int n = params.size();
        names = new String[n];
        values = new String[n];
        messages = new byte[n][];
        int i = 0;
        for (Map.Entry<String, String> e : params.entrySet()) {
            names[i] = e.getKey();
            values[i] = e.getValue();
            ByteBuf buf = Unpooled.buffer(names[i].length() + values[i].length() + 7);
            Encoders.writeParameterStatus(buf, names[i], values[i]);
            messages[i] = ByteBufUtil.getBytes(buf);
            i++;
        }
    }

    /**
     * {@code params} in its iteration order, encoded as it is now: later changes to it are not
     * followed, so use a map that does not change ({@link Map#copyOf}), or use this at once.
     */
    public static ParameterStatuses of(Map<String, String> params) {
        return new ParameterStatuses(params);
    }

    public Map<String, String> params() {
        return params;
    }

    /** See {@link #derived}. */
    public Object derived() {
        return derived;
    }

    public void derived(Object value) {
        derived = value;
    }

    /**
     * Writes a ParameterStatus for each parameter in order, with the value {@code overrides} has
     * for it where it has one; a value that is this one (the same object) is copied as encoded.
     */
    void write(ByteBuf buf, Map<String, String> overrides) {
        for (int i = 0; i < names.length; i++) {
            String own = overrides.get(names[i]);
            if (own == null || own == values[i]) {
                buf.writeBytes(messages[i]);
            } else {
                Encoders.writeParameterStatus(buf, names[i], own);
            }
        }
    }
}
