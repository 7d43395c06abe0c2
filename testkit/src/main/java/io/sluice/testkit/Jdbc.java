package io.sluice.testkit;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * pgjdbc connections to anything that speaks the PostgreSQL protocol on 127.0.0.1 (a cluster,
 * PgBouncer, Sluice). SSL is off and the connect timeout is 10 s so a hung server fails a test
 * instead of stalling it.
 */
public final class Jdbc {
    private Jdbc() {}

    public static String url(String host, int port, String db) {
        return "jdbc:postgresql://" + host + ":" + port + "/" + db;
    }

    public static Connection connect(String host, int port, String db, String user, String password)
            throws SQLException {
        return connect(host, port, db, user, password, new Properties());
    }

    /** Connects with extra pgjdbc properties (e.g. {@code prepareThreshold}, {@code socketTimeout}). */
    public static Connection connect(String host, int port, String db, String user, String password,
            Properties extra) throws SQLException {
        Properties props = new Properties();
        props.setProperty("sslmode", "disable");
        props.setProperty("connectTimeout", "10");
        props.putAll(extra);
        props.setProperty("user", user);
        if (password != null) {
            props.setProperty("password", password);
        }
        return DriverManager.getConnection(url(host, port, db), props);
    }
}
