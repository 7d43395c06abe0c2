package io.sluice.session;

import java.util.List;

/** Sink for one admin console command's results; the session encodes them for the client. */
public interface ConsoleReply {
    void rowDescription(List<String> names, List<Integer> typeOids);

    void dataRow(List<String> textValues);

    void commandComplete(String tag);

    void notice(String message, String detail);

    void error(String sqlState, String message);

    /** SHUTDOWN: the connection just closes, no reply. */
    void close();

    /** End of this command's output: the session sends ReadyForQuery. */
    void done();
}
