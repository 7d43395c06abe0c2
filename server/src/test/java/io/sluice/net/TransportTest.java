package io.sluice.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.uring.IoUring;
import org.junit.jupiter.api.Test;

/** Which transport runs: io_uring first, epoll where the kernel refuses it, and sluice.io to force one. */
class TransportTest {
    static boolean available(Transport.Kind kind) {
        return switch (kind) {
            case IO_URING -> IoUring.isAvailable();
            case EPOLL -> Epoll.isAvailable();
            case NIO -> true;
        };
    }

    @Test
    void theDefaultIsTheBestTransportThatRuns() {
        Transport.Kind expected = IoUring.isAvailable() ? Transport.Kind.IO_URING
                : Epoll.isAvailable() ? Transport.Kind.EPOLL : Transport.Kind.NIO;
        assertThat(Transport.choose("")).isEqualTo(expected);
    }

    @Test
    void aNamedTransportIsTakenWhenItRuns() {
        assertThat(Transport.choose("nio")).isEqualTo(Transport.Kind.NIO);
        assumeTrue(Epoll.isAvailable());
        assertThat(Transport.choose(" EPOLL ")).isEqualTo(Transport.Kind.EPOLL);
        assertThat(new Transport(Transport.Kind.EPOLL).describe()).isEqualTo("epoll");
    }

    @Test
    void anUnknownNameFailsWithTheChoices() {
        assertThatThrownBy(() -> Transport.choose("kqueue"))
                .hasMessage("sluice.io=kqueue: expected io_uring, epoll or nio");
    }

    @Test
    void nioHasNoUnixSockets() {
        Transport nio = new Transport(Transport.Kind.NIO);
        assertThat(nio.nativeSockets()).isFalse();
        assertThatThrownBy(nio::domainSocketChannel).hasMessageStartingWith("not supported: unix sockets");
    }
}
