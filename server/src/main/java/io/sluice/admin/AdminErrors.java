package io.sluice.admin;

import java.nio.charset.StandardCharsets;

/**
 * The console's error texts, word for word from PgBouncer 1.25.2's admin.c. All use SQLSTATE
 * 08P01 (PgBouncer's default for pooler errors) except a failed RELOAD (F0000).
 */
public final class AdminErrors {

    /** PgBouncer's default SQLSTATE for errors it raises itself (protocol_violation). */
    public static final String PROTOCOL_VIOLATION = "08P01";
    /** config_file_error, used only by a failed RELOAD. */
    public static final String CONFIG_FILE_ERROR = "F0000";

    /** admin_error formats into a 1024-byte buffer, so longer texts are cut to 1023 bytes. */
    private static final int MAX_MESSAGE_BYTES = 1023;

    private AdminErrors() {
    }

    public static AdminResult.AdminError error(String message) {
        return new AdminResult.AdminError(PROTOCOL_VIOLATION, truncate(message));
    }

    public static AdminResult.AdminError invalidCommand(String query) {
        return error("invalid command '" + query + "', use SHOW HELP;");
    }

    public static AdminResult.AdminError badArguments() {
        return error("bad arguments");
    }

    public static AdminResult.AdminError adminAccessNeeded() {
        return error("admin access needed");
    }

    public static AdminResult.AdminError noSuchDatabase(String db) {
        return error("no such database: " + db);
    }

    public static AdminResult.AdminError alreadySuspendedOrPaused() {
        return error("already suspended/paused");
    }

    /** {@code verb} is pause, reconnect, disable, enable, kill; WAIT_CLOSE uses {@link #cannotWaitInAdminDb}. */
    public static AdminResult.AdminError cannotOnAdminDb(String verb, String db) {
        return error("cannot " + verb + " admin db: " + db);
    }

    public static AdminResult.AdminError cannotWaitInAdminDb(String db) {
        return error("cannot wait in admin db: " + db);
    }

    public static AdminResult.AdminError cannotSuspendWithPausedDatabases() {
        return error("cannot suspend with paused databases");
    }

    public static AdminResult.AdminError poolerIsShuttingDown() {
        return error("pooler is shutting down");
    }

    public static AdminResult.AdminError poolerNotPausedOrSuspended() {
        return error("pooler is not paused/suspended");
    }

    public static AdminResult.AdminError databaseNotPaused(String db) {
        return error("database " + db + " is not paused");
    }

    public static AdminResult.AdminError databaseRequired() {
        return error("a database is required");
    }

    public static AdminResult.AdminError invalidClientPointer() {
        return error("invalid client pointer supplied");
    }

    public static AdminResult.AdminError clientNotFound() {
        return error("client not found");
    }

    public static AdminResult.AdminError setFailed() {
        return error("SET failed");
    }

    public static AdminResult.AdminError reloadFailed() {
        return new AdminResult.AdminError(CONFIG_FILE_ERROR, "RELOAD failed, see logs for additional details");
    }

    /** Cuts to at most 1023 UTF-8 bytes without splitting a character. */
    static String truncate(String message) {
        byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= MAX_MESSAGE_BYTES) {
            return message;
        }
        int end = MAX_MESSAGE_BYTES;
        while (end > 0 && (bytes[end] & 0xC0) == 0x80) {
            end--; // bytes[end] is a continuation byte: the cut would split a character
        }
        return new String(bytes, 0, end, StandardCharsets.UTF_8);
    }
}
