package io.sluice.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class AdminAccessTest {

    private static final List<String> ADMINS = List.of("root", "ops");
    private static final List<String> STATS = List.of("grafana");

    @Test
    void adminUsersAreAdmin() {
        assertThat(AdminAccess.of("ops", ADMINS, STATS, false, false)).isEqualTo(AdminAccess.ADMIN);
    }

    @Test
    void statsUsersAreReadOnly() {
        assertThat(AdminAccess.of("grafana", ADMINS, STATS, false, false)).isEqualTo(AdminAccess.STATS);
    }

    @Test
    void othersAreRefused() {
        assertThat(AdminAccess.of("alice", ADMINS, STATS, false, false)).isEqualTo(AdminAccess.NONE);
        assertThat(AdminAccess.of("Ops", ADMINS, STATS, false, false)).as("case-sensitive").isEqualTo(AdminAccess.NONE);
    }

    @Test
    void authTypeAnyGivesEveryoneReadOnlyButAdminsStayAdmin() {
        assertThat(AdminAccess.of("alice", ADMINS, STATS, true, false)).isEqualTo(AdminAccess.STATS);
        assertThat(AdminAccess.of("root", ADMINS, STATS, true, false)).isEqualTo(AdminAccess.ADMIN);
    }

    @Test
    void pgbouncerOverUnixSocketWithSameUidIsAdmin() {
        assertThat(AdminAccess.of("pgbouncer", ADMINS, STATS, false, true)).isEqualTo(AdminAccess.ADMIN);
        assertThat(AdminAccess.of("pgbouncer", ADMINS, STATS, false, false)).isEqualTo(AdminAccess.NONE);
        assertThat(AdminAccess.of("alice", ADMINS, STATS, false, true)).isEqualTo(AdminAccess.NONE);
    }

    @Test
    void userListsSplitOnCommasAndBlanks() {
        assertThat(AdminAccess.parseUserList(" root, ops ,,grafana  x")).containsExactly("root", "ops", "grafana", "x");
        assertThat(AdminAccess.parseUserList("")).isEmpty();
        assertThat(AdminAccess.parseUserList(null)).isEmpty();
    }

    @Test
    void noAccessUsersCannotRunQueries() {
        assertThatThrownBy(() -> new AdminUser("alice", AdminAccess.NONE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("not allowed");
    }
}
