package io.sluice.it;

import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a login got, as one comparable string: {@code ok <current_user>} or the FATAL text. A
 * wrong password reads "password authentication failed" whichever words the pooler used
 * (PgBouncer 1.18: "password authentication failed" or "SASL authentication failed"; Sluice
 * adds PostgreSQL's 'for user "x"': the intended difference wrong-password).
 */
final class LoginAnswer {
    static final String WRONG_PASSWORD = "password authentication failed";

    private LoginAnswer() {
    }

    /** Runs {@code select current_user} through psql. */
    static String psql(ProcessRunner r) {
        ProcessResult res = r.run();
        if (res.ok()) {
            return "ok " + res.out();
        }
        String err = res.stderr();
        int at = err.indexOf("FATAL:  ");
        assertThat(at).as("a FATAL error in: " + res.describe()).isNotNegative();
        return canonical(err.substring(at + "FATAL:  ".length()).strip().lines().findFirst().orElse(""));
    }

    /** The same through pgjdbc; a refusal reads {@code <SQLSTATE> <message>}. */
    static String jdbc(String host, int port, String db, String user, String password) {
        Properties p = new Properties();
        p.setProperty("user", user);
        p.setProperty("password", password);
        p.setProperty("sslmode", "disable");
        p.setProperty("connectTimeout", "10");
        String url = "jdbc:postgresql://" + host + ":" + port + "/" + db;
        try (Connection c = java.sql.DriverManager.getConnection(url, p);
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery("select current_user")) {
            rs.next();
            return "ok " + rs.getString(1);
        } catch (SQLException e) {
            String state = e.getSQLState();
            String msg = canonical(e.getMessage().replaceFirst("^FATAL: ", ""));
            // the SQLSTATE of a wrong password is the intended difference too
            return (msg.equals(WRONG_PASSWORD) ? "" : state + " ") + msg;
        }
    }

    static String canonical(String message) {
        if (message.startsWith(WRONG_PASSWORD) || message.equals("SASL authentication failed")) {
            return WRONG_PASSWORD;
        }
        return message;
    }
}
