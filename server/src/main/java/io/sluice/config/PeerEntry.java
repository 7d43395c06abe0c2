package io.sluice.config;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * One {@code [peers]} entry: where to forward cancel requests whose key names another
 * process of the peer group.
 *
 * @param peerId   1..65535
 * @param host     IP, host name, {@code /dir} or {@code @abstract}
 * @param port     default 6432
 * @param poolSize max in-flight forwarded cancels; empty = default_pool_size
 */
public record PeerEntry(int peerId, String host, int port, OptionalInt poolSize) {

    public PeerEntry {
        Objects.requireNonNull(host, "host");
    }
}
