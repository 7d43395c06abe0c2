package io.sluice.net;

import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.IoRegistration;
import io.netty.util.concurrent.ThreadAwareExecutor;
import io.sluice.util.TurnClock;

/**
 * An event loop's I/O handler whose every turn (a wait for I/O, then the callbacks of what
 * completed) is one turn of a {@link TurnClock}. Everything else is the wrapped handler's: the
 * registrations it hands out are its own, which its channels rely on.
 */
final class TimedTurns implements IoHandler {
    private final IoHandler io;
    private final TurnClock clock;

    private TimedTurns(IoHandler io, TurnClock clock) {
        this.io = io;
        this.clock = clock;
    }

    static IoHandlerFactory factory(IoHandlerFactory io, TurnClock clock) {
        return new IoHandlerFactory() {
            @Override
            public IoHandler newHandler(ThreadAwareExecutor executor) {
                return new TimedTurns(io.newHandler(executor), clock);
            }

            @Override
            public boolean isChangingThreadSupported() {
                return io.isChangingThreadSupported();
            }
        };
    }

    @Override
    public int run(IoHandlerContext context) {
        clock.turnStarted();
        try {
            return io.run(context);
        } finally {
            clock.turnEnded();
        }
    }

    @Override
    public void initialize() {
        io.initialize();
    }

    @Override
    public void prepareToDestroy() {
        io.prepareToDestroy();
    }

    @Override
    public void destroy() {
        io.destroy();
    }

    @Override
    public IoRegistration register(IoHandle handle) throws Exception {
        return io.register(handle);
    }

    @Override
    public void wakeup() {
        io.wakeup();
    }

    @Override
    public boolean isCompatible(Class<? extends IoHandle> handleType) {
        return io.isCompatible(handleType);
    }
}
