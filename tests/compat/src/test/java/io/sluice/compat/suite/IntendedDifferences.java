package io.sluice.compat.suite;

import java.util.List;
import java.util.Map;

/**
 * The one place where Sluice is allowed to answer differently from Debian's PgBouncer, each with
 * its reason. Tests that meet one of these name it here instead of loosening an assertion in
 * place. (tests/compat/README.md lists the same entries for people.)
 */
final class IntendedDifferences {
    /** A difference and why it is intended. */
    record Difference(String id, String what, String why) {}

    static final Difference WRONG_PASSWORD = new Difference("wrong-password",
            "a wrong password: same text as PgBouncer ('password authentication failed'), but SQLSTATE 28P01 where PgBouncer sends 08P01",
            "PostgreSQL's own code: clients and drivers map 28P01 to a password error");
    static final Difference SHOW_COLUMNS = new Difference("show-columns",
            "SHOW POOLS/STATS/DATABASES/...: Sluice has PgBouncer 1.25.2's columns, Debian's PgBouncer is 1.18",
            "Sluice targets 1.25.2; the suite checks that every 1.18 column appears in Sluice's, in the same order");
    static final Difference SHOW_VERSION = new Difference("show-version",
            "SHOW VERSION: the text names Sluice and its version",
            "it is a different program; the shape (one row, column 'version') is the same");
    static final Difference EXTRA_SHOW = new Difference("extra-show",
            "SHOW POOL_SCALING (and Sluice's other extra SHOW commands) answer; PgBouncer says 'bad SHOW command'",
            "pressure features: Sluice's own counters");

    static final Difference RESERVE_POOL_RENAME = new Difference("reserve-pool-rename",
            "SHOW DATABASES: 1.18's column reserve_pool is reserve_pool_size in Sluice",
            "PgBouncer 1.24 renamed it (pgbouncer PR 1232); Sluice shows 1.25.2's name");

    /** Column names of 1.18 that later PgBouncer versions (and so Sluice) renamed: old -> new. */
    static final Map<String, String> COLUMN_RENAMES = Map.of("reserve_pool", "reserve_pool_size");

    static final List<Difference> ALL = List.of(WRONG_PASSWORD, SHOW_COLUMNS, RESERVE_POOL_RENAME, SHOW_VERSION, EXTRA_SHOW);

    private IntendedDifferences() {}
}
