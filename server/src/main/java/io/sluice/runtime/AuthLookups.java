package io.sluice.runtime;

import io.sluice.auth.AuthQueryReply;
import io.sluice.auth.UserLookup;
import io.sluice.backend.AuthQueryRun;
import io.sluice.config.userlist.Secret;
import io.sluice.log.Log;
import io.sluice.pool.CheckoutFailure;
import io.sluice.pool.PoolKey;
import io.sluice.pool.Waiter;
import io.sluice.proto.SqlState;

import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Finds the user a login names: in auth_file, else through auth_query on the auth pool (as
 * PgBouncer's set_pool() and handle_auth_query_response()). The query runs on every such
 * login, so a password changed in PostgreSQL counts from the next login on; what it returned
 * is kept per database and user for the server logins of that user's pool. Event loop only.
 */
final class AuthLookups {
    /** What PgBouncer tells a client whose login hit a misconfiguration or a broken auth query. */
    static final String CONFIG_ERROR = "bouncer config error";

    private final Supplier<Routing> routing;
    private final BiConsumer<PoolKey, Waiter> checkout;
    private final Map<String, Map<String, String>> queried = new HashMap<>();

    AuthLookups(Supplier<Routing> routing, BiConsumer<PoolKey, Waiter> checkout) {
        this.routing = routing;
        this.checkout = checkout;
    }

    /**
     * @param database the database the client asked for; null when auth_query must not run (a
     *                 database that does not exist, the console)
     * @param alive    false once the client has gone (its query is then not started)
     */
    void lookup(String database, String user, BooleanSupplier alive, Consumer<UserLookup> done) {
        Routing r = routing.get();
        Secret secret = r.authFileSecret(user);
        if (secret != null) {
            done.accept(new UserLookup.Known(secret));
            return;
        }
        AuthSource source = database == null ? AuthSource.NONE : r.authSource(database);
        if (source.problem() != null) {
            Log.global().error(source.problem());
            done.accept(new UserLookup.Refused(SqlState.PROTOCOL_VIOLATION, CONFIG_ERROR));
        } else if (!source.runs()) {
            done.accept(new UserLookup.Unknown());
        } else {
            checkout.accept(source.pool(), new AuthQueryRun(source.query(), user, new AuthQueryRun.Callback() {
                @Override
                public boolean waiting() {
                    return alive.getAsBoolean();
                }

                @Override
                public void answered(AuthQueryReply.Outcome outcome) {
                    done.accept(result(database, outcome));
                }

                @Override
                public void failed(CheckoutFailure f) {
                    String state = f.sqlState() == null ? SqlState.PROTOCOL_VIOLATION : f.sqlState();
                    done.accept(new UserLookup.Refused(state, f.message()));
                }
            }));
        }
    }

    private UserLookup result(String database, AuthQueryReply.Outcome outcome) {
        if (outcome instanceof AuthQueryReply.Found f) {
            queried.computeIfAbsent(database, d -> new HashMap<>()).put(f.user(), f.secret());
            return new UserLookup.Known(Secret.of(f.secret()));
        }
        if (outcome instanceof AuthQueryReply.Failed) {
            // PgBouncer closes the auth server and tells the waiting client only this
            return new UserLookup.Refused(SqlState.PROTOCOL_VIOLATION, CONFIG_ERROR);
        }
        // PgBouncer has no mock login after auth_query: it says so plainly
        return new UserLookup.Refused(SqlState.PROTOCOL_VIOLATION, "no such user");
    }

    /** The secret auth_query last returned for {@code user} of {@code database}, or null. */
    String queriedSecret(String database, String user) {
        return queried.getOrDefault(database, Map.of()).get(user);
    }
}
