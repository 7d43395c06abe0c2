package io.sluice.admin;

import java.util.Objects;

/** The logged-in console user a query runs as. Users with {@link AdminAccess#NONE} never get here. */
public record AdminUser(String name, AdminAccess access) {
    public AdminUser {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(access, "access");
        if (access == AdminAccess.NONE) {
            throw new IllegalArgumentException("not allowed: user " + name + " has no console access");
        }
    }

    public boolean isAdmin() {
        return access == AdminAccess.ADMIN;
    }
}
