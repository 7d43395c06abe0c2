package io.sluice.admin;

/** One SHOW PEERS row: a {@code [peers]} entry; poolSize is the effective value. */
public record PeerRow(int peerId, String host, int port, int poolSize) {
}
