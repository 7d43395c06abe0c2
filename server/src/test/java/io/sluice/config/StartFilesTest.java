package io.sluice.config;

import io.sluice.config.hba.HbaMethod;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.sluice.config.TestConfigs.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A start and a reload read the auth and hba files as PgBouncer does, so a config PgBouncer
 * starts with starts Sluice and a reload it takes does not fail: errors are logged; at start the
 * users before a broken line count, on reload the files read before stay.
 */
class StartFilesTest {
    @TempDir
    Path dir;

    private final List<String> errors = new ArrayList<>();

    private ConfigSnapshot start(String settings) throws ConfigException {
        Path ini = write(dir, "pgbouncer.ini", "[pgbouncer]\n" + settings);
        return ConfigLoader.loadForStart(ini, errors::add);
    }

    @Test
    void aBrokenAuthFileKeepsTheUsersBeforeTheBrokenLine() throws Exception {
        Path users = write(dir, "userlist.txt", "\"alice\" \"a\"\nbob \"b\"\n\"carol\" \"c\"\n");
        ConfigSnapshot s = start("auth_file = " + users + "\n");
        assertThat(s.authFile().orElseThrow().users()).containsOnlyKeys("alice");
        assertThat(errors).containsExactly("broken auth file (" + users + ":2)");
        assertThatThrownBy(() -> ConfigLoader.load(dir.resolve("pgbouncer.ini"), dir))
                .as("the migrate tool's check refuses it").hasMessageContaining("broken auth file");
    }

    @Test
    void aMissingAuthFileStartsWithNoUsers() throws Exception {
        ConfigSnapshot s = start("auth_file = " + dir.resolve("gone.txt") + "\n");
        assertThat(s.authFile().orElseThrow().users()).isEmpty();
        assertThat(errors).containsExactly("could not open auth_file " + dir.resolve("gone.txt")
                + ": No such file or directory");
    }

    @Test
    void anHbaLineThatCannotBeReadIsSkippedWithPgBouncersWarnings() throws Exception {
        Path hba = write(dir, "hba.conf", "host all all 127.0.0.1/32 bogus\nhost all all 0.0.0.0/0 md5\n");
        ConfigSnapshot s = start("auth_type = hba\nauth_hba_file = " + hba + "\n");
        assertThat(s.hba().orElseThrow().match(false, false, InetAddress.getByName("127.0.0.1"), "d", "u"))
                .as("the next line decides").contains(HbaMethod.MD5);
        assertThat(s.warnings()).containsSubsequence("hba line 1: unsupported auth method: bogus (" + hba + ")",
                "could not parse hba config line 1");
        assertThat(errors).isEmpty();
    }

    @Test
    void aMissingHbaFileRejectsEveryLogin() throws Exception {
        ConfigSnapshot s = start("auth_type = hba\nauth_hba_file = " + dir.resolve("gone.conf") + "\n");
        assertThat(s.hba().orElseThrow().rules()).isEmpty();
        assertThat(errors).containsExactly("could not open hba config file " + dir.resolve("gone.conf")
                + ": No such file or directory; every login is rejected");
        errors.clear();
        assertThat(start("auth_type = hba\n").hba().orElseThrow().rules()).isEmpty();
        assertThat(errors).containsExactly("auth_type = hba needs auth_hba_file; every login is rejected");
    }

    @Test
    void aReloadKeepsTheFilesReadBeforeWhenTheNewOnesCannotBeUsed() throws Exception {
        Path users = write(dir, "userlist.txt", "\"alice\" \"a\"\n\"bob\" \"b\"\n");
        Path hba = write(dir, "hba.conf", "host all all 0.0.0.0/0 md5\n");
        ConfigSnapshot first = start("auth_type = hba\nauth_file = " + users + "\nauth_hba_file = " + hba
                + "\ndefault_pool_size = 5\n");
        write(dir, "userlist.txt", "\"alice\" \"a\"\nbob b\n");
        java.nio.file.Files.delete(hba);
        write(dir, "pgbouncer.ini", "[pgbouncer]\nauth_type = hba\nauth_file = " + users + "\nauth_hba_file = " + hba
                + "\ndefault_pool_size = 9\n");
        ConfigSnapshot second = ConfigLoader.reload(first, errors::add);
        assertThat(second.defaultPoolSize()).as("the rest of the file applies").isEqualTo(9);
        assertThat(second.authFile().orElseThrow().users()).containsOnlyKeys("alice", "bob");
        assertThat(second.hba()).isEqualTo(first.hba());
        assertThat(errors).containsExactly("broken auth file (" + users + ":2)",
                "could not open hba config file " + hba + ": No such file or directory; the rules read before stay");
    }
}
