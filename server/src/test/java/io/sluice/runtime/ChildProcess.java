package io.sluice.runtime;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Test helper: a child process whose merged output is read line by line, and signal sending. */
final class ChildProcess implements AutoCloseable {
    static final Path LAUNCHER = Path.of("src/main/dist/bin/sluice").toAbsolutePath();

    final Process process;
    final List<String> lines = new ArrayList<>();
    private final BufferedReader reader;

    private ChildProcess(Process process) {
        this.process = process;
        this.reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    static ChildProcess start(List<String> command, Map<String, String> env) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().putAll(env);
        return new ChildProcess(pb.start());
    }

    /** Runs {@code mainClass} from the test class path through the launcher script. */
    static ChildProcess viaLauncher(String mainClass, String... args) throws IOException {
        return viaLauncher(Map.of(), mainClass, args);
    }

    /** As {@link #viaLauncher(String, String...)} with more environment variables. */
    static ChildProcess viaLauncher(Map<String, String> env, String mainClass, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("/bin/sh", LAUNCHER.toString()));
        cmd.addAll(List.of(args));
        Map<String, String> all = new java.util.HashMap<>(env);
        all.putAll(Map.of(
                "SLUICE_MAIN_CLASS", mainClass,
                "SLUICE_CLASSPATH", System.getProperty("java.class.path"),
                "SLUICE_JAVA", javaBinary()));
        return start(cmd, all);
    }

    static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Blocks until a line containing {@code text} arrives (the test's @Timeout bounds it). */
    String awaitLine(String text) throws IOException {
        String line;
        while ((line = reader.readLine()) != null) {
            lines.add(line);
            if (line.contains(text)) {
                return line;
            }
        }
        throw new AssertionError("output ended without '" + text + "'; got " + lines);
    }

    /** Reads the rest of the output (until the process closes it). */
    List<String> drain() throws IOException {
        String line;
        while ((line = reader.readLine()) != null) {
            lines.add(line);
        }
        return lines;
    }

    static void kill(String signal, long pid) throws IOException, InterruptedException {
        int rc = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start().waitFor();
        if (rc != 0) {
            throw new AssertionError("kill -" + signal + " " + pid + " failed: " + rc);
        }
    }

    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }
}
