package io.sluice.session;

import io.sluice.log.Level;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A startup packet's parameters, read as PgBouncer's decide_startup_pool reads them: those it
 * knows or tracks become the client's parameters, {@code options} goes through
 * {@link StartupOptions}, ignore_startup_parameters are skipped, and any other refuses the login
 * in PgBouncer's words.
 */
final class StartupParameters {
    /** Startup parameters Sluice understands without ignore_startup_parameters. */
    private static final Set<String> KNOWN = Set.of("application_name", "client_encoding",
            "datestyle", "timezone", "standard_conforming_strings", "intervalstyle");

    /**
     * What the login keeps besides the client's parameters.
     *
     * @param protocolOptions    the {@code _pq_.} extensions asked for, none of which we speak
     * @param replicationOptions a replication client's {@code options}, for its own server verbatim
     */
    record Read(List<String> protocolOptions, String replicationOptions) {
    }

    private StartupParameters() {
    }

    /**
     * Reads {@code parameters} into {@code params}; null when one was refused, the client then
     * told so through {@code replies}.
     */
    static Read read(ClientSession session, LoginReplies replies, SessionSettings cfg, Map<String, String> parameters,
                     ClientParams params, boolean replication) {
        List<String> protocolOptions = new ArrayList<>();
        String replicationOptions = null;
        for (Map.Entry<String, String> e : parameters.entrySet()) {
            String key = e.getKey().toLowerCase(Locale.ROOT);
            if (key.equals("user") || key.equals("database") || key.equals("replication")) {
                ClientLog.debug(session, () -> "got var: " + e.getKey() + "=" + e.getValue());
                continue;
            }
            if (e.getKey().startsWith("_pq_.")) {
                ClientLog.debug(session, () -> "ignoring protocol extension parameter: " + e.getKey() + "="
                        + e.getValue());
                protocolOptions.add(e.getKey());
                continue;
            }
            if (key.equals("options") && replication) {
                replicationOptions = e.getValue(); // its own server takes any options, verbatim
                continue;
            }
            if (key.equals("options")) {
                StartupOptions.Refused refused = StartupOptions.apply(e.getValue(), params, KNOWN,
                        cfg.ignoreStartupParameters());
                if (refused != null) {
                    if (refused.warning() != null) {
                        ClientLog.line(session, Level.WARNING, refused.warning()); // set_startup_options' line
                    }
                    replies.refuse(refused.message());
                    return null;
                }
                continue;
            }
            if (KNOWN.contains(key) || params.isTracked(key)) {
                ClientLog.debug(session, () -> "got var: " + e.getKey() + "=" + e.getValue());
                params.set(e.getKey(), e.getValue());
            } else if (cfg.ignoreStartupParameters().contains(key)) {
                ClientLog.debug(session, () -> "ignoring startup parameter: " + e.getKey() + "=" + e.getValue());
            } else {
                ClientLog.line(session, Level.WARNING,
                        "unsupported startup parameter: " + e.getKey() + "=" + e.getValue());
                replies.refuse("unsupported startup parameter: " + e.getKey());
                return null;
            }
        }
        return new Read(protocolOptions, replicationOptions);
    }
}
