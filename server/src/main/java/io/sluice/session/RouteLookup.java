package io.sluice.session;

import io.sluice.proto.PgError;

/** Result of resolving a startup packet's database and user. */
public sealed interface RouteLookup {
    record Pooled(Route route) implements RouteLookup {
    }

    /** The admin console database {@code pgbouncer}. */
    record Console() implements RouteLookup {
    }

    record Refused(PgError error) implements RouteLookup {
    }
}
