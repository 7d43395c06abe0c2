package io.sluice.admin;

/** The RowDescription type OIDs the console sends, exactly the ones PgBouncer uses. */
public final class PgType {
    public static final int BYTEA = 17;
    public static final int INT8 = 20;
    public static final int INT4 = 23;
    public static final int TEXT = 25;
    public static final int NUMERIC = 1700;

    private PgType() {
    }
}
