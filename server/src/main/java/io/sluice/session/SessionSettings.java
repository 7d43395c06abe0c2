package io.sluice.session;

import io.sluice.auth.AuthMethod;
import io.sluice.config.hba.HbaRules;

import java.util.Optional;
import java.util.Set;

/**
 * Global client-side settings from the config snapshot, swapped as a whole on RELOAD.
 *
 * @param authType                 auth_type
 * @param hba                      auth_hba_file rules and their ident maps, when auth_type is hba
 * @param ignoreStartupParameters  lower-case names
 * @param trackedParameters        parameters replayed on server switch (lower-case)
 * @param queryWaitNotify          query_wait_notify in nanoseconds; 0 = never
 * @param serverFastClose          server_fast_close
 */
public record SessionSettings(
        AuthMethod authType,
        Optional<HbaRules> hba,
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
