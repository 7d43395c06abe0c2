package io.sluice.backend;

import io.sluice.pool.CheckoutFailure;
import io.sluice.pool.Lease;
import io.sluice.pool.PoolKey;
import io.sluice.pool.ServerHandle;
import io.sluice.pool.Waiter;
import io.sluice.proto.codec.ParameterStatuses;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The ParameterStatus values each pool's servers greet with, which a new client of the pool is
 * greeted with in turn (PgBouncer's welcome message and wait_for_welcome). Learned once per pool:
 * the first client triggers one checkout, and that server's parameters answer it and every
 * client that asked meanwhile, so a login burst costs one connect, not one each. Event loop only.
 */
public final class WelcomeCache {
    /** Receives the greeting parameters, or why they could not be learned. On the event loop. */
    public interface Callback {
        void welcome(ParameterStatuses params);

        void failed(CheckoutFailure failure);
    }

    private final BiConsumer<PoolKey, Waiter> checkout;
    private final Function<ServerHandle, Map<String, String>> paramsOf;
    private final Map<PoolKey, ParameterStatuses> known = new HashMap<>();
    private final Map<PoolKey, List<Callback>> waiting = new HashMap<>();

    /** Learns through {@code checkout}, reading each {@link ServerConnection}'s parameters. */
    public WelcomeCache(BiConsumer<PoolKey, Waiter> checkout) {
        this(checkout, server -> ((ServerConnection) server).params().values());
    }

    WelcomeCache(BiConsumer<PoolKey, Waiter> checkout, Function<ServerHandle, Map<String, String>> paramsOf) {
        this.checkout = checkout;
        this.paramsOf = paramsOf;
    }

    /**
     * Forgets the parameters of {@code database}'s pools (null: every pool), as PgBouncer's pools
     * go with their welcome message when KILL drops them: the next login waits for a server again.
     */
    public void forget(String database) {
        known.keySet().removeIf(k -> database == null || k.database().equals(database));
    }

    /** Answers at once when the pool's parameters are known; otherwise when one server has told them. */
    public void request(PoolKey key, Callback callback) {
        ParameterStatuses params = known.get(key);
        if (params != null) {
            callback.welcome(params);
            return;
        }
        List<Callback> queue = waiting.get(key);
        if (queue != null) {
            queue.add(callback);
            return;
        }
        waiting.put(key, new ArrayList<>(List.of(callback)));
        checkout.accept(key, new Waiter() {
            @Override
            public boolean isAlive() {
                return true;
            }

            @Override
            public boolean waitsForWelcome() {
                return true;
            }

            @Override
            public void granted(Lease lease) {
                ParameterStatuses learned = ParameterStatuses.of(Map.copyOf(paramsOf.apply(lease.server())));
                lease.release();
                known.put(key, learned);
                waiting.remove(key).forEach(c -> c.welcome(learned));
            }

            @Override
            public void failed(CheckoutFailure failure) {
                // not remembered: the next client tries again (the server may be back by then)
                waiting.remove(key).forEach(c -> c.failed(failure));
            }
        });
    }
}
