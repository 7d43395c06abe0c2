package io.sluice.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.testkit.DatagramInbox;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The datagram socket behind syslog = 1, against a socket this test binds (no root needed). */
class SyslogSocketTest {
    private static SyslogSocket to(DatagramInbox inbox) {
        return new SyslogSocket("\0" + inbox.address().substring(1));
    }

    @Test
    void sendsEachLineAsOneDatagramAndNamesTheSocketWhenNobodyListens() throws Exception {
        DatagramInbox inbox = DatagramInbox.bind();
        SyslogSocket socket = to(inbox);
        try {
            socket.send("<30>Dec  3 10:00:00 x[1]: one".getBytes(StandardCharsets.UTF_8));
            socket.send("<30>Dec  3 10:00:00 x[1]: two".getBytes(StandardCharsets.UTF_8));
            assertThat(inbox.received()).containsExactly("<30>Dec  3 10:00:00 x[1]: one", "<30>Dec  3 10:00:00 x[1]: two");
            inbox.close();
            assertThatThrownBy(() -> socket.send("three".getBytes(StandardCharsets.UTF_8)))
                    .isInstanceOf(IOException.class).hasMessageContaining("sluice-testkit-notify-");
        } finally {
            socket.close();
            inbox.close();
        }
    }

    @Test
    void aSyslogDaemonThatComesBackGetsTheNextLine(@TempDir Path dir) throws Exception {
        Path devLog = dir.resolve("log");
        SyslogSocket socket = new SyslogSocket(devLog.toString());
        try {
            assertThatThrownBy(() -> socket.send("lost".getBytes(StandardCharsets.UTF_8)))
                    .isInstanceOf(IOException.class).hasMessageStartingWith(devLog + ": ");
            try (DatagramInbox inbox = DatagramInbox.bindPath(devLog)) {
                socket.send("kept".getBytes(StandardCharsets.UTF_8));
                assertThat(inbox.received()).containsExactly("kept");
            }
        } finally {
            socket.close();
        }
    }
}
