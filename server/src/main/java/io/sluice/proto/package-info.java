/**
 * Wire model of the PostgreSQL v3 protocol as far as the pooler must understand it: typed
 * messages for startup, authentication and the few messages that steer pooling
 * (ReadyForQuery, ErrorResponse, ParameterStatus, BackendKeyData). Everything else is relayed
 * as opaque {@link io.sluice.proto.Frame}s. May use {@code util} and netty-buffer.
 */
package io.sluice.proto;
