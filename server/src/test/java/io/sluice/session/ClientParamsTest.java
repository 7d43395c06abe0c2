package io.sluice.session;

import io.netty.buffer.UnpooledByteBufAllocator;
import io.sluice.backend.ServerParams;
import io.sluice.proto.Frame;
import io.sluice.proto.codec.Encoders;
import io.sluice.proto.codec.ParameterStatuses;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Which parameter SETs the relay must see answered before the client's own messages go. */
class ClientParamsTest {
    private static final Set<String> TRACKED = Set.of("timezone", "datestyle", "application_name");

    @Test
    void aStartupValueNoServerTookYetIsTriedBeforeTheClientsMessages() {
        ClientParams p = new ClientParams(TRACKED);
        p.set("TimeZone", "Nowhere/Land");
        Map<String, String> server = Map.of("TimeZone", "UTC", "DateStyle", "ISO, MDY");
        assertThat(p.syncQuery(server)).isEqualTo("SET TimeZone = 'Nowhere/Land';");
        assertThat(p.syncTriesNew(server)).isTrue();
        // a server that already has the value (in any case) needs no SET and proves nothing new
        assertThat(p.syncTriesNew(Map.of("TimeZone", "nowhere/land"))).isFalse();
        // nor does one that never reported the parameter: no SET goes out
        assertThat(p.syncTriesNew(Map.of("DateStyle", "ISO, MDY"))).isFalse();
        p.allTaken();
        assertThat(p.syncTriesNew(server)).as("taken once: pipelined from now on").isFalse();
        assertThat(p.syncQuery(server)).isEqualTo("SET TimeZone = 'Nowhere/Land';");
    }

    @Test
    void oneGreetingServesEveryLoginAndEachConfigurationsTrackedSet() {
        ParameterStatuses greeting = ParameterStatuses.of(Map.of("TimeZone", "UTC", "DateStyle", "ISO, MDY",
                "search_path", "app", "server_version", "15.0"));
        ClientParams first = new ClientParams(TRACKED);
        first.fillUnset(greeting);
        ClientParams again = new ClientParams(TRACKED);
        again.set("timezone", "Asia/Tokyo");
        again.fillUnset(greeting);
        // after a reload that tracks search_path too (track_extra_parameters), the same greeting
        ClientParams reloaded = new ClientParams(Set.of("timezone", "datestyle", "search_path"));
        reloaded.fillUnset(greeting);

        assertThat(first.own()).containsOnly(Map.entry("TimeZone", "UTC"), Map.entry("DateStyle", "ISO, MDY"));
        assertThat(again.own()).containsOnly(Map.entry("TimeZone", "Asia/Tokyo"), Map.entry("DateStyle", "ISO, MDY"));
        assertThat(reloaded.own()).containsOnly(Map.entry("TimeZone", "UTC"), Map.entry("DateStyle", "ISO, MDY"),
                Map.entry("search_path", "app"));
    }

    @Test
    void valuesFromTheServerAreKnownGood() {
        ClientParams p = new ClientParams(TRACKED);
        p.fillUnset(ParameterStatuses.of(Map.of("TimeZone", "UTC", "DateStyle", "ISO, MDY")));
        assertThat(p.syncTriesNew(Map.of("TimeZone", "Asia/Tokyo", "DateStyle", "SQL, DMY"))).isFalse();

        p.set("DateStyle", "German");
        p.serverReported(new Frame((byte) 'S',
                Encoders.parameterStatus(UnpooledByteBufAllocator.DEFAULT, "DateStyle", "German, DMY")));
        assertThat(p.syncTriesNew(Map.of("DateStyle", "ISO, MDY")))
                .as("the client's SET took on a server, which reported the value").isFalse();
    }

    @Test
    void theApplicationNameFollowsTheStartupPacketTheGreetingAndTheServersReports() {
        ClientParams p = new ClientParams(TRACKED);
        assertThat(p.applicationName()).isEmpty();
        p.fillUnset(ParameterStatuses.of(Map.of("application_name", "from-pool")));
        assertThat(p.applicationName()).isEqualTo("from-pool");

        ClientParams own = new ClientParams(TRACKED);
        own.set("Application_Name", "psql");
        own.fillUnset(ParameterStatuses.of(Map.of("application_name", "from-pool")));
        assertThat(own.applicationName()).as("the startup packet's value stays").isEqualTo("psql");
        own.serverReported(new Frame((byte) 'S',
                Encoders.parameterStatus(UnpooledByteBufAllocator.DEFAULT, "application_name", "batch")));
        assertThat(own.applicationName()).as("SET application_name, reported by the server").isEqualTo("batch");
        assertThat(own.own()).containsEntry("application_name", "batch");
    }

    @Test
    void aServerFoundToNeedNoSetForAValueSetIsNotComparedAgainUntilItReportsAParameter() {
        ServerParams server = new ServerParams();
        server.reported("TimeZone", "UTC");
        server.reported("DateStyle", "ISO, MDY");
        ClientParams first = new ClientParams(TRACKED);
        first.fillUnset(ParameterStatuses.of(Map.of("TimeZone", "UTC", "DateStyle", "ISO, MDY")));
        ClientParams second = new ClientParams(TRACKED);
        second.fillUnset(ParameterStatuses.of(Map.of("TimeZone", new String("UTC"), "DateStyle", "ISO, MDY")));

        assertThat(first.syncQuery(server)).isNull();
        assertThat(server.matches(first.valueSet())).isTrue();
        assertThat(second.valueSet()).as("equal values, one shared set").isSameAs(first.valueSet());
        assertThat(second.syncQuery(server)).isNull();

        // the server changes a value (another client's SET): the note goes, the values are compared
        server.reported("TimeZone", "Asia/Tokyo");
        assertThat(server.matches(first.valueSet())).isFalse();
        assertThat(second.syncQuery(server)).isEqualTo("SET TimeZone = 'UTC';");
        assertThat(server.matches(second.valueSet())).as("a SET is needed: nothing noted").isFalse();

        // the client's own value changes: its set is another one, compared again
        server.reported("TimeZone", "UTC");
        assertThat(first.syncQuery(server)).isNull();
        first.serverReported(new Frame((byte) 'S',
                Encoders.parameterStatus(UnpooledByteBufAllocator.DEFAULT, "TimeZone", "Europe/Paris")));
        assertThat(first.valueSet()).isNotSameAs(second.valueSet());
        assertThat(first.syncQuery(server)).isEqualTo("SET TimeZone = 'Europe/Paris';");
        assertThat(second.syncQuery(server)).isNull();
    }

    @Test
    void everySpellingOfATrackedNameIsTrackedAndKeptUnderTheCanonicalOne() {
        ClientParams p = new ClientParams(TRACKED);
        assertThat(p.isTracked("DateStyle")).isTrue();
        assertThat(p.isTracked("datestyle")).isTrue();
        assertThat(p.isTracked("DATESTYLE")).isTrue();
        assertThat(p.isTracked("TimeZone")).isTrue();
        assertThat(p.isTracked("IntervalStyle")).as("not in this tracked set").isFalse();
        assertThat(ClientParams.canonical("DateStyle")).isEqualTo("DateStyle");
        assertThat(ClientParams.canonical("timezone")).isEqualTo("TimeZone");
        assertThat(ClientParams.canonical("INTERVALSTYLE")).isEqualTo("IntervalStyle");
        assertThat(ClientParams.canonical("search_path")).isEqualTo("search_path");

        p.set("timezone", "Asia/Tokyo");
        p.fillUnset(ParameterStatuses.of(Map.of("TimeZone", "UTC", "DateStyle", "ISO, MDY", "server_version", "15.0")));
        assertThat(p.own()).containsOnly(Map.entry("TimeZone", "Asia/Tokyo"), Map.entry("DateStyle", "ISO, MDY"));
    }
}
