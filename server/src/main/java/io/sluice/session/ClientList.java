package io.sluice.session;

import io.sluice.pool.PoolKey;
import io.sluice.util.LinkedMembers;

import java.util.EnumMap;

/**
 * One of {@link ClientRegistry}'s places: clients in the order they arrived there. A client moves
 * between places three times per transaction in transaction pooling, so the places are linked
 * lists through a node each client owns. Event loop only.
 */
final class ClientList extends LinkedMembers<ClientSession> {
    /** A client's link; it is in at most one place at a time. */
    static final class Node extends LinkedMembers.Link<ClientSession> {
        /** The registry's lists of the client's pool, once looked up, and for which pool key. */
        EnumMap<ClientSession.State, ClientList> poolLists;
        PoolKey poolListsKey;
        /** The client counts its login went into (the client limits); null until counted. */
        ClientRegistry.Tally database;
        ClientRegistry.Tally user;

        Node(ClientSession session) {
            super(session);
        }
    }
}
