package io.sluice.admin;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * What a console user may do: {@link #ADMIN} runs every command, {@link #STATS} only SHOW
 * (except SHOW FDS) and the ignored "fake" SETs, {@link #NONE} may not use the console and is
 * disconnected at login with "not allowed".
 */
public enum AdminAccess {
    ADMIN,
    STATS,
    NONE;

    /** The user name PgBouncer lets in without password over its Unix socket from the same uid. */
    public static final String SELF_USER = "pgbouncer";

    /**
     * PgBouncer's admin_pre_login/admin_post_login rules.
     *
     * @param user               login user name
     * @param adminUsers         admin_users, parsed ({@link #parseUserList})
     * @param statsUsers         stats_users, parsed
     * @param authTypeAny        auth_type = any: every user gets read-only access (names in
     *                           admin_users still get admin), as the code does (config.md differs)
     * @param unixSocketSameUid  the client came over the Unix socket from a process with the
     *                           pooler's own uid (peer credentials checked by the caller)
     */
    public static AdminAccess of(String user, Collection<String> adminUsers, Collection<String> statsUsers,
                                 boolean authTypeAny, boolean unixSocketSameUid) {
        if (unixSocketSameUid && SELF_USER.equals(user)) {
            return ADMIN;
        }
        if (adminUsers.contains(user)) {
            return ADMIN;
        }
        if (statsUsers.contains(user) || authTypeAny) {
            return STATS;
        }
        return NONE;
    }

    /**
     * Splits an admin_users/stats_users value. PgBouncer matches a name as a whole word between
     * commas or white space, so both separate names here.
     */
    public static List<String> parseUserList(String value) {
        List<String> out = new ArrayList<>();
        if (value == null) {
            return out;
        }
        for (String name : value.split("[,\\s]+")) {
            if (!name.isEmpty()) {
                out.add(name);
            }
        }
        return out;
    }
}
