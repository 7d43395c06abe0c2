package io.sluice.proto;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.IllegalReferenceCountException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A frame's own count: its bytes go back once, when the last reference does, and never twice. */
class FrameTest {
    private static ByteBuf sync() {
        return Unpooled.buffer().writeByte('S').writeInt(4);
    }

    @Test
    void theLastReleaseReleasesTheBytesOnce() {
        ByteBuf bytes = sync();
        Frame f = new Frame((byte) 'S', bytes);
        f.retain();
        assertEquals(2, f.refCnt());
        assertFalse(f.release());
        assertEquals(1, bytes.refCnt());
        assertTrue(f.release());
        assertEquals(0, bytes.refCnt());
        assertThrows(IllegalReferenceCountException.class, f::release);
        assertThrows(IllegalReferenceCountException.class, f::retain);
    }

    @Test
    void takenBytesStayWithWhoTookThem() {
        ByteBuf bytes = sync();
        Frame f = new Frame((byte) 'S', bytes);
        assertSame(bytes, f.takeBytes());
        assertTrue(f.release());
        assertEquals(1, bytes.refCnt());
        bytes.release();
    }
}
