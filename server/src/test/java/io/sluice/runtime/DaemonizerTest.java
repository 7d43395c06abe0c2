package io.sluice.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DaemonizerTest {
    private static final String CHILD = Cli.DAEMON_CHILD_FLAG;

    @Test
    void dropsDaemonFlagEverywhereButInValues() {
        assertThat(Daemonizer.childArgs(new String[] {"-d", "x.ini"})).containsExactly(CHILD, "x.ini");
        assertThat(Daemonizer.childArgs(new String[] {"--daemon", "-v", "x.ini"})).containsExactly(CHILD, "-v", "x.ini");
        assertThat(Daemonizer.childArgs(new String[] {"-dvq", "x.ini"})).containsExactly(CHILD, "-vq", "x.ini");
        assertThat(Daemonizer.childArgs(new String[] {"-du", "-d", "x.ini"})).containsExactly(CHILD, "-u", "-d", "x.ini");
        assertThat(Daemonizer.childArgs(new String[] {"-vudaemon", "x.ini"})).containsExactly(CHILD, "-vudaemon", "x.ini");
        assertThat(Daemonizer.childArgs(new String[] {"--user", "-d", "-d", "x.ini"})).containsExactly(CHILD, "--user", "-d", "x.ini");
        assertThat(Daemonizer.childArgs(new String[] {"-d", "--", "-d"})).containsExactly(CHILD, "--", "-d");
    }

    @Test
    void relaunchesTheJvmCommandWithoutLauncher() {
        LauncherEnv none = new LauncherEnv(Map.of(), ProcessHandle.current());
        List<String> cmd = List.of("/usr/bin/java", "-Xmx1g", "-jar", "sluice.jar", "-d", "x.ini");
        assertThat(Daemonizer.relaunchPrefix(none, cmd, new String[] {"-d", "x.ini"}))
                .containsExactly("/usr/bin/java", "-Xmx1g", "-jar", "sluice.jar");
        assertThatThrownBy(() -> Daemonizer.relaunchPrefix(none, cmd, new String[] {"other"}))
                .hasMessageStartingWith("not supported:");
    }

    @Test
    void relaunchesTheLauncherWhenItIsOurParent() {
        long parent = ProcessHandle.current().parent().orElseThrow().pid();
        LauncherEnv env = new LauncherEnv(
                Map.of("SLUICE_LAUNCHER", "/opt/sluice/bin/sluice", "SLUICE_LAUNCHER_PID", Long.toString(parent)),
                ProcessHandle.current());
        assertThat(env.publicPid()).isEqualTo(parent);
        assertThat(Daemonizer.relaunchPrefix(env, List.of("java", "x"), new String[] {"x"}))
                .containsExactly("/bin/sh", "/opt/sluice/bin/sluice");
    }

    @Test
    void staleLauncherPidIsIgnored() {
        LauncherEnv env = new LauncherEnv(
                Map.of("SLUICE_LAUNCHER", "/x/sluice", "SLUICE_LAUNCHER_PID", "1"), ProcessHandle.current());
        assertThat(env.publicPid()).isEqualTo(ProcessHandle.current().pid());
        assertThat(env.launcherPath()).isEmpty();
    }
}
