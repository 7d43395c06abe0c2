/**
 * Client and server authentication as pure exchanges: md5, cleartext, SCRAM-SHA-256 (server
 * side, client side and PgBouncer-style pass-through with recovered keys), the auth_type
 * vocabulary, and the policy that picks which challenge a client gets.
 *
 * <p>Everything here is bytes/strings in, bytes/strings out: no sockets, no Netty, no clock.
 * Randomness (nonces, salts) is injected so exchanges are reproducible in tests. Objects are
 * not thread-safe; an exchange belongs to the one connection that drives it.
 *
 * <p>May depend on the JDK and {@code io.sluice.util} only. BouncyCastle is not needed: the
 * JDK's MD5, SHA-256 and HmacSHA256 cover everything.
 */
package io.sluice.auth;
