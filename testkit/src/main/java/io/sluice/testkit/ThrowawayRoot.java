package io.sluice.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A copy-on-write copy of this machine's root file system to install packages into without
 * changing the machine: an overlay of {@code /} (upper layer on a tmpfs) in a private mount and
 * PID namespace, entered with {@code chroot}. {@code /proc} shows the namespace's processes (its
 * {@code /proc/sys} read-only), {@code /dev} is a tmpfs with the usual few nodes bound in and a
 * private devpts, there is no {@code /sys}, {@code /tmp} and {@code /run} are fresh (with
 * {@code /run/postgresql} as postgresql-common makes it): nothing inside can reach this
 * machine's kernel settings or device nodes. The network is shared, so servers inside listen on
 * this machine's ports and reach a PostgreSQL started outside. Never boot an init system in it. Nothing written inside is visible
 * outside, and closing it (or this JVM dying) ends the namespace's first process, after which
 * the kernel kills every process inside and drops the mounts.
 *
 * <p>Needs root, {@code unshare}, {@code nsenter} and overlayfs; {@link #unavailable()} says
 * what is missing. Not thread-safe.
 */
public final class ThrowawayRoot implements AutoCloseable {
    private static final Duration SETUP_TIMEOUT = Duration.ofSeconds(30);

    private final Path base;
    private final Process holder;
    private final long nsPid;
    private final long reaperId;

    private ThrowawayRoot(Path base, Process holder, long nsPid) {
        this.base = base;
        this.holder = holder;
        this.nsPid = nsPid;
        this.reaperId = Reaper.register(this::stop);
    }

    /** Why a throwaway root cannot be made here, or empty if it can. */
    public static Optional<String> unavailable() {
        if (!OsUser.isRoot()) {
            return Optional.of("needs root (mount and PID namespaces, overlayfs)");
        }
        for (String tool : List.of("/usr/bin/unshare", "/usr/bin/nsenter", "/usr/sbin/chroot")) {
            if (!Files.isExecutable(Path.of(tool))) {
                return Optional.of("needs " + tool + " (util-linux, coreutils)");
            }
        }
        try {
            if (!Files.readString(Path.of("/proc/filesystems")).contains("\toverlay\n")) {
                return Optional.of("the kernel has no overlayfs");
            }
        } catch (IOException e) {
            return Optional.of("cannot read /proc/filesystems: " + e.getMessage());
        }
        return Optional.empty();
    }

    /** Makes one; its mount point is a new directory under {@code parent} (on this machine's disk). */
    public static ThrowawayRoot create(Path parent) {
        unavailable().ifPresent(why -> {
            throw new IllegalStateException("cannot make a throwaway root: " + why);
        });
        try {
            Path base = Files.createTempDirectory(Files.createDirectories(parent), "root-");
            String setup = String.join("\n",
                    "set -e",
                    "b=" + quote(base.toString()),
                    "mount -t tmpfs -o mode=755 throwaway \"$b\"",
                    "mkdir \"$b/upper\" \"$b/work\" \"$b/root\"",
                    "mount -t overlay overlay -o lowerdir=/,upperdir=\"$b/upper\",workdir=\"$b/work\" \"$b/root\"",
                    "r=\"$b/root\"",
                    "mount -t proc proc \"$r/proc\"",
                    // kernel settings stay out of reach: a per-mount read-only flag, not the superblock's
                    "mount --bind \"$r/proc/sys\" \"$r/proc/sys\"",
                    "mount -o remount,bind,ro \"$r/proc/sys\"",
                    // a /dev of its own with the few nodes programs open, so nothing inside can
                    // create or change this machine's device nodes; no /sys at all
                    "mount -t tmpfs -o mode=755 dev \"$r/dev\"",
                    "for d in null zero full random urandom tty; do"
                            + " touch \"$r/dev/$d\"; mount --bind \"/dev/$d\" \"$r/dev/$d\"; done",
                    "mkdir \"$r/dev/pts\" \"$r/dev/shm\"",
                    "mount -t devpts -o newinstance,ptmxmode=0666,mode=620 devpts \"$r/dev/pts\"",
                    "ln -s pts/ptmx \"$r/dev/ptmx\"",
                    "mount -t tmpfs -o mode=1777 shm \"$r/dev/shm\"",
                    "ln -s /proc/self/fd \"$r/dev/fd\"",
                    "ln -s /proc/self/fd/0 \"$r/dev/stdin\"; ln -s /proc/self/fd/1 \"$r/dev/stdout\";"
                            + " ln -s /proc/self/fd/2 \"$r/dev/stderr\"",
                    "mount -t tmpfs -o mode=1777 tmp \"$r/tmp\"",
                    "mount -t tmpfs -o mode=755 run \"$r/run\"",
                    "mkdir -p \"$r/run/lock\" \"$r/run/postgresql\"",
                    "if id postgres >/dev/null 2>&1; then chown postgres:postgres \"$r/run/postgresql\"; fi",
                    "chmod 2775 \"$r/run/postgresql\"",
                    "echo ready",
                    // PID 1 of the namespace lives as long as our stdin: when this JVM goes, so does it.
                    "exec cat >/dev/null");
            Process holder = new ProcessBuilder("/usr/bin/unshare", "--mount", "--pid", "--fork",
                    "--propagation", "private", "--kill-child", "/bin/sh", "-c", setup)
                    .redirectErrorStream(true)
                    .start();
            String first = readLine(holder);
            if (!"ready".equals(first)) {
                holder.destroyForcibly();
                throw new IllegalStateException("throwaway root setup failed: " + first
                        + new String(holder.getInputStream().readAllBytes()));
            }
            long nsPid = holder.toHandle().children().findFirst()
                    .orElseThrow(() -> new IllegalStateException("unshare has no child"))
                    .pid();
            return new ThrowawayRoot(base, holder, nsPid);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a throwaway root", e);
        }
    }

    /** Runs a shell script as root inside the root, from {@code /}, and waits (at most 60 s). */
    public ProcessResult sh(String script) {
        return runner(script).run();
    }

    /** The runner for a shell script inside the root, to add stdin, env or another timeout. */
    public ProcessRunner runner(String script) {
        return ProcessRunner.of(command(script)).env("DEBIAN_FRONTEND", "noninteractive");
    }

    /** Like {@link #sh} but fails the test unless the script exits 0; returns its stdout. */
    public String shOk(String script) {
        return sh(script).requireSuccess().stdout();
    }

    /** Writes a file inside the root (parent directories must exist). */
    public void write(String path, String content) {
        runner("cat > " + quote(path)).stdin(content).run().requireSuccess();
    }

    /** Copies a file of this machine (any path, also on other mounts) to {@code path} inside the root. */
    public void copyIn(Path file, String path) {
        ProcessRunner.of("/usr/bin/nsenter", "--target", Long.toString(nsPid), "--mount", "--", "/bin/cp",
                file.toAbsolutePath().toString(), mountPoint() + path).run().requireSuccess();
    }

    /** Reads a file inside the root. */
    public String read(String path) {
        return shOk("cat " + quote(path));
    }

    /** Where the root is mounted, as seen inside the namespace. */
    public String mountPoint() {
        return base.resolve("root").toString();
    }

    private List<String> command(String script) {
        return new ArrayList<>(List.of("/usr/bin/nsenter", "--target", Long.toString(nsPid),
                "--mount", "--pid", "--", "/usr/sbin/chroot", mountPoint(), "/bin/sh", "-c", "cd / && " + script));
    }

    /** Quotes a word for /bin/sh. */
    public static String quote(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }

    @Override
    public void close() {
        stop();
        Reaper.unregister(reaperId);
    }

    private void stop() {
        holder.destroy(); // unshare --kill-child takes the namespace's PID 1, and so all inside, with it
        try {
            if (!holder.waitFor(10, TimeUnit.SECONDS)) {
                holder.destroyForcibly();
                holder.waitFor(10, TimeUnit.SECONDS);
            }
            // The mounts lived in the namespace only: what is left here is the empty mount point.
            TempDir.deleteRecursively(base);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The first line the process prints, waiting at most {@link #SETUP_TIMEOUT}. */
    private static String readLine(Process p) throws IOException {
        var in = p.getInputStream();
        StringBuilder line = new StringBuilder();
        boolean ended = Await.poll(SETUP_TIMEOUT, () -> {
            try {
                while (in.available() > 0) {
                    int c = in.read();
                    if (c == '\n') {
                        return true;
                    }
                    line.append((char) c);
                }
                return !p.isAlive() && in.available() == 0;
            } catch (IOException e) {
                return true;
            }
        });
        if (!ended) {
            p.destroyForcibly();
            throw new IllegalStateException("throwaway root setup did not finish in " + SETUP_TIMEOUT);
        }
        return line.toString();
    }
}
