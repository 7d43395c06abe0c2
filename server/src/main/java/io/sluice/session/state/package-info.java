/**
 * What a client's session carries across servers in transaction pooling, as pure data and
 * decisions (no Netty): a SQL tokenizer and classifier, client statement names and the per-server
 * LRU of prepared statements, the journal of SET/RESET and SQL-level PREPARE with PostgreSQL's
 * transaction rules, the sync plan that brings a server to a client's state, and the pin probe.
 * May use {@code proto} and {@code util} only (enforced by ArchitectureTest).
 */
package io.sluice.session.state;
