package io.sluice.migrate;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

/**
 * Reads {@link ServerFacts} from PostgreSQL over JDBC in a read-only session: SHOW of three
 * settings, and, when the login may, pg_authid (secret kinds) and pg_hba_file_rules. Nothing is
 * written. One connection per call; safe from any thread.
 */
final class ServerProbe {

    /** Where and as whom to connect. */
    record Target(String host, int port, String database, String user, String password) {
        String where() {
            return host + ":" + port;
        }
    }

    private ServerProbe() {
    }

    /** Parses {@code postgres://user:password@host:port/db} (also {@code postgresql://}). */
    static Target parseUrl(String url) {
        URI u = URI.create(url);
        if (!"postgres".equals(u.getScheme()) && !"postgresql".equals(u.getScheme())) {
            throw new IllegalArgumentException("not a postgres:// URL: " + url);
        }
        String user = "postgres";
        String password = null;
        if (u.getRawUserInfo() != null) {
            String[] ui = u.getRawUserInfo().split(":", 2);
            user = URLDecoder.decode(ui[0], StandardCharsets.UTF_8);
            password = ui.length > 1 ? URLDecoder.decode(ui[1], StandardCharsets.UTF_8) : null;
        }
        String db = u.getPath() == null || u.getPath().length() <= 1 ? "postgres" : u.getPath().substring(1);
        String host = u.getHost() == null ? "127.0.0.1" : u.getHost();
        return new Target(host, u.getPort() > 0 ? u.getPort() : 5432, db, user, password);
    }

    static ServerFacts read(Target t) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", t.user());
        if (t.password() != null) {
            p.setProperty("password", t.password());
        }
        p.setProperty("readOnly", "true");
        p.setProperty("connectTimeout", "10");
        p.setProperty("ApplicationName", "sluice-migrate check");
        String url = "jdbc:postgresql://" + (t.host().contains(":") ? "[" + t.host() + "]" : t.host()) + ":" + t.port()
                + "/" + t.database();
        try (Connection c = DriverManager.getConnection(url, p); Statement st = c.createStatement()) {
            c.setReadOnly(true);
            int max = Integer.parseInt(show(st, "max_connections"));
            int reserved = Integer.parseInt(show(st, "superuser_reserved_connections"));
            try {
                reserved += Integer.parseInt(show(st, "reserved_connections")); // PostgreSQL 16+
            } catch (SQLException e) {
                // older server: no such setting
            }
            String enc = show(st, "password_encryption");
            String version = show(st, "server_version");
            Optional<Map<String, String>> kinds = Optional.empty();
            Optional<Map<String, String>> secrets = Optional.empty();
            try (ResultSet rs = st.executeQuery("SELECT rolname, rolpassword FROM pg_authid WHERE rolcanlogin")) {
                Map<String, String> k = new LinkedHashMap<>();
                Map<String, String> s = new LinkedHashMap<>();
                while (rs.next()) {
                    String pw = rs.getString(2);
                    k.put(rs.getString(1), pw == null ? "none" : pw.startsWith("SCRAM-SHA-256$") ? "scram"
                            : pw.startsWith("md5") ? "md5" : "plain");
                    s.put(rs.getString(1), pw == null ? "" : pw);
                }
                kinds = Optional.of(k);
                secrets = Optional.of(s);
            } catch (SQLException e) {
                // not a superuser: secrets cannot be compared
            }
            Optional<Set<String>> methods = Optional.empty();
            try (ResultSet rs = st.executeQuery(
                    "SELECT DISTINCT auth_method FROM pg_hba_file_rules WHERE type LIKE 'host%' AND error IS NULL")) {
                Set<String> m = new LinkedHashSet<>();
                while (rs.next()) {
                    m.add(rs.getString(1));
                }
                methods = Optional.of(m);
            } catch (SQLException e) {
                // needs superuser or pg_read_all_settings
            }
            return new ServerFacts(t.where(), version, max, reserved, enc, kinds, secrets, methods);
        }
    }

    private static String show(Statement st, String name) throws SQLException {
        try (ResultSet rs = st.executeQuery("SHOW " + name)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
