/** Event loops, transports (epoll/NIO), listeners and socket options. May use {@code config}, {@code util}. */
package io.sluice.net;
