package io.sluice.proto;

/** SQLSTATE codes Sluice sends itself (PgBouncer uses the same ones). */
public final class SqlState {
    public static final String PROTOCOL_VIOLATION = "08P01";
    public static final String INVALID_PASSWORD = "28P01";
    public static final String INVALID_AUTHORIZATION = "28000";
    public static final String INVALID_CATALOG_NAME = "3D000";
    public static final String TOO_MANY_CONNECTIONS = "53300";
    public static final String QUERY_CANCELED = "57014";
    public static final String ADMIN_SHUTDOWN = "57P01";
    public static final String CANNOT_CONNECT_NOW = "57P03";
    public static final String FEATURE_NOT_SUPPORTED = "0A000";
    public static final String CONNECTION_FAILURE = "08006";
    public static final String CONFIG_FILE_ERROR = "F0000";

    private SqlState() {
    }
}
