package io.sluice.backend;

import io.sluice.proto.BackendMessage;
import io.sluice.proto.Frame;
import io.sluice.proto.TransactionStatus;
import io.sluice.proto.codec.BackendDecoding;
import io.sluice.proto.codec.Encoders;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * One simple-protocol query the pooler runs for itself on a connection of its own (the replica
 * lag check), answering with the rows as text or with why it failed. The connection stays open
 * for the next check; it is closed when the answer is not clean. Event loop only.
 */
public final class CheckQuery implements ServerListener {
    /** Rows as text (SQL NULL as null), or an error. */
    public record Answer(List<List<String>> rows, String error) {
    }

    private final ServerConnection server;
    private final Consumer<Answer> done;
    private final List<List<String>> rows = new ArrayList<>();
    private String error;
    private boolean finished;

    private CheckQuery(ServerConnection server, Consumer<Answer> done) {
        this.server = server;
        this.done = done;
    }

    /** Runs {@code sql} on {@code server}, which must be idle and unlinked; {@code done} runs exactly once. */
    public static void run(ServerConnection server, String sql, Consumer<Answer> done) {
        if (!server.isOpen() || server.linked() || server.state() != ServerConnection.State.IDLE) {
            done.accept(new Answer(List.of(), "server not ready"));
            return;
        }
        CheckQuery q = new CheckQuery(server, done);
        server.link(q, "");
        server.channel().writeAndFlush(Encoders.query(server.channel().alloc(), sql));
    }

    @Override
    public void onServerFrame(Frame frame) {
        try {
            switch (frame.type()) {
                case 'D' -> rows.addAll(BackendDecoding.dataRows(frame));
                case 'E' -> error = BackendDecoding.decode(frame) instanceof BackendMessage.ErrorOrNotice e
                        ? e.sqlState() + " " + e.message() : "error";
                default -> { }
            }
        } finally {
            frame.release();
        }
    }

    @Override
    public void onReady(TransactionStatus status, Frame frame) {
        frame.release();
        if (finished) {
            return;
        }
        finished = true;
        server.unlink();
        if (status != TransactionStatus.IDLE) {
            server.close("check query left a transaction open");
            done.accept(new Answer(List.of(), "check query left a transaction open"));
            return;
        }
        done.accept(new Answer(List.copyOf(rows), error));
    }

    @Override
    public void onServerReadComplete() {
    }

    @Override
    public void onServerLost(String reason) {
        if (!finished) {
            finished = true;
            done.accept(new Answer(List.of(), reason));
        }
    }

    @Override
    public boolean clientWritable() {
        return true;
    }

    @Override
    public void onServerWritable(boolean writable) {
    }
}
