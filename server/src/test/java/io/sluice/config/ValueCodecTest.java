package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ValueCodecTest {

    @Test
    void secondsPrintLikeCPercentG() {
        assertThat(ValueCodec.formatSeconds(0)).isEqualTo("0");
        assertThat(ValueCodec.formatSeconds(3_600_000_000L)).isEqualTo("3600");
        assertThat(ValueCodec.formatSeconds(500_000)).isEqualTo("0.5");
        assertThat(ValueCodec.formatSeconds(1_250_000)).isEqualTo("1.25");
        assertThat(ValueCodec.formatSeconds(100)).isEqualTo("0.0001");
        assertThat(ValueCodec.formatSeconds(10)).isEqualTo("1e-05");
        assertThat(ValueCodec.formatSeconds(123_456_000_000L)).isEqualTo("123456");
        assertThat(ValueCodec.formatSeconds(1_234_567_000_000L)).isEqualTo("1.23457e+06");
        assertThat(ValueCodec.formatSeconds(1_000_000_000_000L)).isEqualTo("1e+06");
        assertThat(ValueCodec.formatSeconds(333_333)).isEqualTo("0.333333");
    }

    @Test
    void timesAcceptFractionsAndRejectNegativesAndJunk() {
        assertThat(ValueCodec.parseTimeMicros("1.5")).contains(1_500_000L);
        assertThat(ValueCodec.parseTimeMicros(".25")).contains(250_000L);
        assertThat(ValueCodec.parseTimeMicros("1e2")).contains(100_000_000L);
        assertThat(ValueCodec.parseTimeMicros("-1")).isEmpty();
        assertThat(ValueCodec.parseTimeMicros("10s")).isEmpty();
        assertThat(ValueCodec.parseTimeMicros("")).isEmpty();
    }

    @Test
    void integersFollowStrtolBaseZero() {
        assertThat(ValueCodec.parseCInt("42")).contains(42L);
        assertThat(ValueCodec.parseCInt("0777")).contains(511L);
        assertThat(ValueCodec.parseCInt("0x1F")).contains(31L);
        assertThat(ValueCodec.parseCInt("-3")).contains(-3L);
        assertThat(ValueCodec.parseCInt("0")).contains(0L);
        assertThat(ValueCodec.parseCInt("08")).isEmpty();
        assertThat(ValueCodec.parseCInt("12abc")).isEmpty();
        assertThat(ValueCodec.parseCInt("")).isEmpty();
    }

    @Test
    void enumsAreCaseInsensitiveAndPrintCanonical() {
        ConfigKey poolMode = ConfigKeys.get("pool_mode");
        assertThat(ValueCodec.parse(poolMode, "Transaction")).contains("transaction");
        assertThat(ValueCodec.parse(poolMode, "txn")).isEmpty();
    }

    @Test
    void rangeChecks() {
        assertThat(ValueCodec.parse(ConfigKeys.get("max_packet_size"), "4294967295")).contains(4294967295L);
        assertThat(ValueCodec.parse(ConfigKeys.get("listen_port"), "4294967295")).isEmpty();
        assertThat(ValueCodec.parse(ConfigKeys.get("peer_id"), "16384")).isEmpty();
    }
}
