package io.sluice.compat;

import picocli.CommandLine.Command;

/** {@code sluice-compat list}: the built-in workloads with version and description. */
@Command(name = "list", description = "List the built-in workloads.")
final class ListCommand implements Runnable {
    @Override
    public void run() {
        for (Workload w : Workloads.builtIn()) {
            System.out.printf("%-22s v%d  %4d clients  %s%n", w.name(), w.version(), w.clients(), w.description());
        }
    }
}
