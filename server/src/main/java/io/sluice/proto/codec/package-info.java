/**
 * Netty framing and encoding for {@code io.sluice.proto}: the first-packet decoder, the
 * type+length frame decoder, and encoders for the messages the pooler writes itself.
 */
package io.sluice.proto.codec;
