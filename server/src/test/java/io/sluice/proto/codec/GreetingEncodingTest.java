package io.sluice.proto.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import io.sluice.proto.BackendMessage;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The login greeting: the server's values in their order with the client's on top, then the client's own. */
class GreetingEncodingTest {
    @Test
    void clientValuesReplaceTheServersInPlaceAndTheirOwnComeLast() {
        Map<String, String> server = new LinkedHashMap<>();
        server.put("server_version", "15.4");
        server.put("application_name", "");
        server.put("TimeZone", "UTC");
        Map<String, String> client = new LinkedHashMap<>();
        client.put("application_name", "pgbench");
        client.put("TimeZone", "UTC");
        client.put("search_path", "app");

        List<BackendMessage> got = greet(server, client);

        assertThat(got).containsExactly(
                new BackendMessage.ParameterStatus("server_version", "15.4"),
                new BackendMessage.ParameterStatus("application_name", "pgbench"),
                new BackendMessage.ParameterStatus("TimeZone", "UTC"),
                new BackendMessage.ParameterStatus("search_path", "app"),
                new BackendMessage.BackendKeyData(42, -7));
    }

    @Test
    void aValueCopiedAsEncodedAndOneEncodedAfreshGiveTheSameBytes() {
        Map<String, String> server = Map.of("TimeZone", "Europe/Berlin", "DateStyle", "ISO, MDY",
                "server_version", "15.4");
        ParameterStatuses pool = ParameterStatuses.of(server);
        // the pool's own value objects (as fillUnset leaves them), and equal values that are other objects
        Map<String, String> same = new LinkedHashMap<>(server);
        Map<String, String> equal = new LinkedHashMap<>();
        server.forEach((k, v) -> equal.put(k, new String(v)));

        assertThat(bytes(pool, same)).isEqualTo(bytes(pool, equal));
        assertThat(greet(server, equal)).containsExactlyInAnyOrder(
                new BackendMessage.ParameterStatus("TimeZone", "Europe/Berlin"),
                new BackendMessage.ParameterStatus("DateStyle", "ISO, MDY"),
                new BackendMessage.ParameterStatus("server_version", "15.4"),
                new BackendMessage.BackendKeyData(42, -7));
    }

    private static byte[] bytes(ParameterStatuses server, Map<String, String> client) {
        EmbeddedChannel out = new EmbeddedChannel();
        Encoders.greet(out, null, server, client, 42, -7);
        ByteBuf buf = out.readOutbound();
        try {
            return io.netty.buffer.ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    @Test
    void withoutServerValuesTheClientsAreAll() {
        List<BackendMessage> got = greet(null, Map.of("client_encoding", "UTF8"));

        assertThat(got).containsExactly(
                new BackendMessage.ParameterStatus("client_encoding", "UTF8"),
                new BackendMessage.BackendKeyData(42, -7));
    }

    /** The messages between AuthenticationOk and ReadyForQuery, which are checked to frame the rest. */
    private static List<BackendMessage> greet(Map<String, String> server, Map<String, String> client) {
        EmbeddedChannel out = new EmbeddedChannel();
        Encoders.greet(out, null, server == null ? null : ParameterStatuses.of(server), client, 42, -7);
        List<BackendMessage> all = DecodedReplies.of(out.readOutbound());
        assertThat(all.get(0)).isInstanceOfSatisfying(BackendMessage.Authentication.class, a -> assertThat(a.code()).isZero());
        assertThat(all.get(all.size() - 1)).isInstanceOf(BackendMessage.ReadyForQuery.class);
        return all.subList(1, all.size() - 1);
    }
}
