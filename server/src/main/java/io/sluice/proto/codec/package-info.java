/**
 * Netty framing and encoding for {@code io.sluice.proto}: the first-packet decoder, the
 * type+length frame decoder, the run joiner that writes relayed frames lying side by side as one,
 * and encoders for the messages the pooler writes itself.
 */
package io.sluice.proto.codec;
