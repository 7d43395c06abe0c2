package io.sluice.session;

import java.util.Set;

/**
 * Global client-side settings from the config snapshot, swapped as a whole on RELOAD.
 *
 * @param authType                 auth_type as written in the config (trust, md5, ...)
 * @param ignoreStartupParameters  lower-case names
 * @param trackedParameters        parameters replayed on server switch (lower-case)
 * @param queryWaitNotify          query_wait_notify in nanoseconds; 0 = never
 * @param serverFastClose          server_fast_close
 */
public record SessionSettings(
        String authType,
        Set<String> adminUsers,
        Set<String> statsUsers,
        int maxClientConn,
        long clientLoginTimeout,
        Set<String> ignoreStartupParameters,
        Set<String> trackedParameters,
        boolean logConnections,
        boolean logDisconnections,
        boolean logPoolerErrors,
        boolean disablePqexec,
        boolean applicationNameAddHost,
        long maxPacketSize,
        int listenPort,
        long queryWaitNotify,
        boolean serverFastClose) {
}
