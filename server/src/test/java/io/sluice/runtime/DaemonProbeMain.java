package io.sluice.runtime;

/**
 * Child-JVM probe for daemon tests: the real {@link Main} with a fake server whose
 * wait-for-clients shutdown finishes at once (it has no clients).
 */
public final class DaemonProbeMain {
    public static void main(String[] args) {
        ServerStarter starter = (config, opts) -> {
            FakeLifecycle[] self = new FakeLifecycle[1];
            self[0] = new FakeLifecycle(e -> {
                if (e.startsWith("shutdown")) {
                    self[0].terminated.complete(0);
                }
            });
            return self[0];
        };
        System.exit(new Main(starter, null, new SnapshotDaemonConfig()).run(args));
    }
}
