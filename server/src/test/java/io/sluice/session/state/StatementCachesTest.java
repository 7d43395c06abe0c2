package io.sluice.session.state;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StatementCachesTest {
    static StatementKey key(String sql) {
        byte[] q = (sql + "\0\0\0").getBytes(StandardCharsets.ISO_8859_1);
        return new StatementKey(q);
    }

    @Test
    void keysCompareQueryAndParameterTypes() {
        assertEquals(key("select 1"), key("select 1"));
        assertFalse(key("select 1").equals(key("select 2")));
        byte[] typed = "select $1\0\0\1\0\0\0\27".getBytes(StandardCharsets.ISO_8859_1);
        byte[] untyped = "select $1\0\0\1\0\0\0\0".getBytes(StandardCharsets.ISO_8859_1);
        assertFalse(new StatementKey(typed).equals(new StatementKey(untyped)));
        assertEquals("select $1", new StatementKey(typed).query());
    }

    @Test
    void serverLruEvictsLeastRecentlyUsedBeyondItsBound() {
        ServerStatements s = new ServerStatements(2);
        ServerStatements.Added a = s.add(key("a"));
        ServerStatements.Added b = s.add(key("b"));
        assertEquals(List.of(), b.evicted());
        assertEquals(a.name(), s.lookup(key("a"))); // a is now the most recent
        ServerStatements.Added c = s.add(key("c"));
        assertEquals(List.of(b.name()), c.evicted());
        assertNull(s.lookup(key("b")));
        assertTrue(s.has(key("a")) && s.has(key("c")));
        assertEquals(2, s.size());
        assertTrue(a.name().startsWith(ServerStatements.PREFIX));
    }

    @Test
    void tenThousandDistinctStatementsStayWithinTheBound() {
        ServerStatements s = new ServerStatements(200);
        int evicted = 0;
        for (int i = 0; i < 10_000; i++) {
            evicted += s.add(key("select " + i)).evicted().size();
            assertTrue(s.size() <= 200);
        }
        assertEquals(10_000 - 200, evicted);
    }

    @Test
    void aReloadChangesTheBoundAndResetKeepsNamesUnique() {
        ServerSession ss = new ServerSession(5);
        for (int i = 0; i < 5; i++) {
            ss.statements().add(key("q" + i));
        }
        ss.statements().bound(2);
        assertEquals(4, ss.statements().add(key("new")).evicted().size());
        assertEquals(2, ss.preparedCount());
        ss.settings().put("a", "1");
        ss.reset();
        assertEquals(0, ss.preparedCount());
        assertTrue(ss.settings().isEmpty());
        assertEquals("sluice_7", ss.statements().add(key("x")).name());
        assertThrows(IllegalArgumentException.class, () -> new ServerStatements(-1));
    }

    @Test
    void resetsClearOnlyWhatWasRegisteredBeforeThem() {
        ClientStatements c = new ClientStatements();
        c.add("s1", key("a"), SqlCommand.NONE);
        long mark = c.mark();
        c.add("s2", key("b"), SqlCommand.NONE); // pipelined after DEALLOCATE ALL was sent
        c.clearUpTo(mark);
        assertFalse(c.has("s1"));
        assertTrue(c.has("s2"));
        assertEquals(key("b").size(), c.bytes());

        ServerStatements s = new ServerStatements(10);
        s.add(key("a"));
        long smark = s.mark();
        s.add(key("b"));
        s.clearUpTo(smark);
        assertFalse(s.has(key("a")));
        assertTrue(s.has(key("b")));
    }

    @Test
    void aFailedParseIsForgottenOnlyIfStillCurrent() {
        ClientStatements c = new ClientStatements();
        ClientStatements.Entry first = c.add("s", key("a"), SqlCommand.NONE);
        c.remove("s");
        ClientStatements.Entry second = c.add("s", key("b"), SqlCommand.NONE);
        c.removeIf("s", first);
        assertEquals(second, c.get("s"));
        ServerStatements s = new ServerStatements(10);
        String name = s.add(key("a")).name();
        s.forget(key("a"), "other");
        assertTrue(s.has(key("a")));
        s.forget(key("a"), name);
        assertFalse(s.has(key("a")));
    }

    @Test
    void staleStatementsAreClosedLater() {
        ServerStatements s = new ServerStatements(10);
        String name = s.add(key("a")).name();
        assertFalse(s.hasCloses());
        s.stale(name);
        assertFalse(s.has(key("a")));
        assertTrue(s.hasCloses());
        assertEquals(List.of(name), s.takeCloses());
        assertFalse(s.hasCloses());
        assertEquals(List.of(), s.takeCloses());
        String again = s.add(key("a")).name();
        assertFalse(again.equals(name), "a fresh name, never the stale one");
    }

    @Test
    void probeRows() {
        assertFalse(PinProbe.of(List.of("0", "0", "0", "0")).pinned());
        PinProbe p = PinProbe.of(List.of("1", "2", "0", "0"));
        assertTrue(p.pinned());
        assertEquals("listen=1 temp=2", p.describe());
        assertTrue(PinProbe.of(List.of("x")).pinned(), "unreadable means pinned");
        assertTrue(PinProbe.of(null).pinned());
    }
}
