package io.sluice.runtime;

import io.netty.util.internal.logging.AbstractInternalLogger;
import io.netty.util.internal.logging.FormattingTuple;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.MessageFormatter;
import io.sluice.log.Level;
import io.sluice.log.Log;

/**
 * Netty's own log lines (a warning from an event loop, a leak report) go to Sluice's log, in
 * PgBouncer's line shape and to its sinks (stderr unless quiet, logfile, syslog), instead of
 * java.util.logging's two-line records on stderr that the logfile and syslog never saw.
 *
 * <p>Levels: Netty's error is ERROR and its warn WARNING, as operators should see them; its rare
 * info lines print as NOISE ({@code -vv}); its debug and trace lines, some 85 at every start about
 * its own set-up, never print, as java.util.logging's default level kept them out before. Netty
 * asks whether trace is on at every io_uring submission and completion: here the answer is a
 * constant, where java.util.logging's check was 0.45 % of the event loop's samples at 50 clients.
 *
 * <p>Install before any Netty class makes its logger: they keep the factory they were made with.
 */
final class NettyLogBridge extends InternalLoggerFactory {
    private final Log log;

    NettyLogBridge(Log log) {
        this.log = log;
    }

    static void install(Log log) {
        InternalLoggerFactory.setDefaultFactory(new NettyLogBridge(log));
    }

    @Override
    protected InternalLogger newInstance(String name) {
        return new Logger(name, log);
    }

    private static final class Logger extends AbstractInternalLogger {
        private static final long serialVersionUID = 1L;
        private final transient Log log;

        Logger(String name, Log log) {
            super(name);
            this.log = log;
        }

        private void plain(Level level, String message, Throwable cause) {
            if (log.enabled(level)) {
                // named after the class that logs, as java.util.logging's records were
                log.log(level, name() + ": " + (cause == null ? message : message + ": " + cause));
            }
        }

        private void emit(Level level, FormattingTuple t) {
            plain(level, t.getMessage(), t.getThrowable());
        }

        private void format(Level level, String format, Object a) {
            if (log.enabled(level)) {
                emit(level, MessageFormatter.format(format, a));
            }
        }

        private void format(Level level, String format, Object a, Object b) {
            if (log.enabled(level)) {
                emit(level, MessageFormatter.format(format, a, b));
            }
        }

        private void format(Level level, String format, Object[] args) {
            if (log.enabled(level)) {
                emit(level, MessageFormatter.arrayFormat(format, args));
            }
        }

        @Override
        public boolean isTraceEnabled() {
            return false;
        }

        @Override
        public void trace(String msg) {
        }

        @Override
        public void trace(String format, Object arg) {
        }

        @Override
        public void trace(String format, Object argA, Object argB) {
        }

        @Override
        public void trace(String format, Object... arguments) {
        }

        @Override
        public void trace(String msg, Throwable t) {
        }

        @Override
        public boolean isDebugEnabled() {
            return false;
        }

        @Override
        public void debug(String msg) {
        }

        @Override
        public void debug(String format, Object arg) {
        }

        @Override
        public void debug(String format, Object argA, Object argB) {
        }

        @Override
        public void debug(String format, Object... arguments) {
        }

        @Override
        public void debug(String msg, Throwable t) {
        }

        @Override
        public boolean isInfoEnabled() {
            return log.enabled(Level.NOISE);
        }

        @Override
        public void info(String msg) {
            plain(Level.NOISE, msg, null);
        }

        @Override
        public void info(String format, Object arg) {
            format(Level.NOISE, format, arg);
        }

        @Override
        public void info(String format, Object argA, Object argB) {
            format(Level.NOISE, format, argA, argB);
        }

        @Override
        public void info(String format, Object... arguments) {
            format(Level.NOISE, format, arguments);
        }

        @Override
        public void info(String msg, Throwable t) {
            plain(Level.NOISE, msg, t);
        }

        @Override
        public boolean isWarnEnabled() {
            return log.enabled(Level.WARNING);
        }

        @Override
        public void warn(String msg) {
            plain(Level.WARNING, msg, null);
        }

        @Override
        public void warn(String format, Object arg) {
            format(Level.WARNING, format, arg);
        }

        @Override
        public void warn(String format, Object argA, Object argB) {
            format(Level.WARNING, format, argA, argB);
        }

        @Override
        public void warn(String format, Object... arguments) {
            format(Level.WARNING, format, arguments);
        }

        @Override
        public void warn(String msg, Throwable t) {
            plain(Level.WARNING, msg, t);
        }

        @Override
        public boolean isErrorEnabled() {
            return log.enabled(Level.ERROR);
        }

        @Override
        public void error(String msg) {
            plain(Level.ERROR, msg, null);
        }

        @Override
        public void error(String format, Object arg) {
            format(Level.ERROR, format, arg);
        }

        @Override
        public void error(String format, Object argA, Object argB) {
            format(Level.ERROR, format, argA, argB);
        }

        @Override
        public void error(String format, Object... arguments) {
            format(Level.ERROR, format, arguments);
        }

        @Override
        public void error(String msg, Throwable t) {
            plain(Level.ERROR, msg, t);
        }
    }
}
