package io.sluice.net;

import io.netty.channel.EventLoop;
import io.sluice.util.Scheduler;

import java.util.concurrent.TimeUnit;

/** The pool engine's {@link Scheduler} on a Netty event loop: timers and deferred tasks on that loop. */
public final class EventLoopScheduler implements Scheduler {
    private final EventLoop loop;

    public EventLoopScheduler(EventLoop loop) {
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
