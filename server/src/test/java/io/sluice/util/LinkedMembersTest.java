package io.sluice.util;

import org.junit.jupiter.api.Test;

import java.util.ConcurrentModificationException;
import java.util.Iterator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What the pool's and the registry's linked lists rely on beyond add and remove. */
class LinkedMembersTest {
    private final LinkedMembers<String> list = new LinkedMembers<>();
    private final LinkedMembers.Link<String> a = new LinkedMembers.Link<>("a");
    private final LinkedMembers.Link<String> b = new LinkedMembers.Link<>("b");
    private final LinkedMembers.Link<String> c = new LinkedMembers.Link<>("c");

    @Test
    void firstIsTheOldestMemberAndSnapshotKeepsTheOrder() {
        assertThat(list.first()).isNull();
        assertThat(list.isEmpty()).isTrue();
        list.add(a);
        list.add(b);
        list.add(c);
        assertThat(list.first()).isEqualTo("a");
        assertThat(list.snapshot()).containsExactly("a", "b", "c");
        list.remove(a);
        assertThat(list.first()).isEqualTo("b");
        list.add(a); // re-added: now the newest
        assertThat(list.snapshot()).containsExactly("b", "c", "a");
        assertThat(list.size()).isEqualTo(3);
        assertThat(b.member()).isEqualTo("b");
    }

    @Test
    void aSnapshotMayBeWalkedWhileTheListChanges() {
        list.add(a);
        list.add(b);
        for (String s : list.snapshot()) {
            list.remove(s.equals("a") ? a : b);
        }
        assertThat(list.isEmpty()).isTrue();
        assertThat(a.list()).isNull();
    }

    @Test
    void changingTheListWhileIteratingItThrows() {
        list.add(a);
        list.add(b);
        Iterator<String> it = list.iterator();
        assertThat(it.next()).isEqualTo("a");
        list.remove(b);
        assertThatThrownBy(it::next).isInstanceOf(ConcurrentModificationException.class);
    }
}
