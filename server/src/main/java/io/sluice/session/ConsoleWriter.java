package io.sluice.session;

import io.sluice.proto.PgError;
import io.sluice.proto.codec.Encoders;

import java.util.List;

/** Encodes one console command's results onto the client channel. */
final class ConsoleWriter implements ConsoleReply {
    private final ClientSession session;

    ConsoleWriter(ClientSession session) {
        this.session = session;
    }

    @Override
    public void rowDescription(List<String> names, List<Integer> typeOids) {
        session.write(Encoders.rowDescription(session.channel().alloc(), names, typeOids));
    }

    @Override
    public void dataRow(List<String> textValues) {
        session.write(Encoders.dataRow(session.channel().alloc(), textValues));
    }

    @Override
    public void commandComplete(String tag) {
        session.write(Encoders.commandComplete(session.channel().alloc(), tag));
    }

    @Override
    public void notice(String message, String detail) {
        session.write(Encoders.error(session.channel().alloc(), PgError.notice(message, detail)));
    }

    @Override
    public void error(String sqlState, String message) {
        session.write(Encoders.error(session.channel().alloc(), PgError.error(sqlState, message)));
    }

    @Override
    public void close() {
        session.kill("admin shutdown", PgError.fatal("57P01", "admin shutdown"));
    }

    @Override
    public void done() {
        session.consoleDone();
    }
}
