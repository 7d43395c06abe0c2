package io.sluice.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.config.PoolMode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The registry's places: arrival order kept, one place per client, moves without leftovers. */
class ClientListTest {
    private final SessionHarness ctx = new SessionHarness(PoolMode.TRANSACTION);

    private ClientSession client() {
        return new ClientSession(ctx, false);
    }

    private static List<ClientSession> items(ClientList l) {
        List<ClientSession> out = new ArrayList<>();
        l.forEach(out::add);
        return out;
    }

    @Test
    void keepsArrivalOrderThroughRemovalsAtEitherEndAndInTheMiddle() {
        ClientList l = new ClientList();
        ClientSession a = client();
        ClientSession b = client();
        ClientSession c = client();
        ClientSession d = client();
        for (ClientSession s : List.of(a, b, c, d)) {
            l.add(s.place());
        }
        assertThat(items(l)).containsExactly(a, b, c, d);
        l.remove(b.place());
        assertThat(items(l)).containsExactly(a, c, d);
        l.remove(a.place());
        l.remove(d.place());
        assertThat(items(l)).containsExactly(c);
        l.add(a.place());
        assertThat(items(l)).containsExactly(c, a);
        assertThat(l.size()).isEqualTo(2);
        l.remove(b.place()); // not in it: nothing happens
        assertThat(l.size()).isEqualTo(2);
    }

    @Test
    void addingToAnotherListMovesTheClient() {
        ClientList idle = new ClientList();
        ClientList waiting = new ClientList();
        ClientSession a = client();
        ClientSession b = client();
        idle.add(a.place());
        idle.add(b.place());
        waiting.add(a.place());
        assertThat(items(idle)).containsExactly(b);
        assertThat(items(waiting)).containsExactly(a);
        assertThat(idle.contains(a.place())).isFalse();
        assertThat(waiting.contains(a.place())).isTrue();
        assertThat(a.place().list()).isSameAs(waiting);
        waiting.remove(a.place());
        assertThat(a.place().list()).isNull();
        assertThat(waiting.size()).isZero();
        assertThat(items(waiting)).isEmpty();
    }
}
