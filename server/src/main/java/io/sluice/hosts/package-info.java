/**
 * Several hosts per database: which host a new server connection goes to
 * ({@code load_balance_hosts}, as PgBouncer), and Sluice's replica lag checks in seconds with
 * HAProxy-style rise/fall that take a lagging replica out of service gently (drain). Plain Java:
 * time, probes and scheduling come in from outside, so the state machine is tested on virtual
 * time; the Netty/SQL probe and the health endpoint live in {@code backend}/{@code runtime}.
 */
package io.sluice.hosts;
