package io.sluice.runtime;

import io.netty.channel.EventLoop;
import io.sluice.util.Scheduler;

import java.util.concurrent.TimeUnit;

/** The engine's {@link Scheduler} on a Netty event loop. */
final class EventLoopScheduler implements Scheduler {
    private final EventLoop loop;

    EventLoopScheduler(EventLoop loop) {
        this.loop = loop;
    }

    @Override
    public Cancellable schedule(Runnable task, long delayNanos) {
        var f = loop.schedule(task, Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
        return () -> f.cancel(false);
    }

    @Override
    public void execute(Runnable task) {
        loop.execute(task);
    }
}
