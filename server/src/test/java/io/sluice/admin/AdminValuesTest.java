package io.sluice.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class AdminValuesTest {

    @Test
    void integersAreDecimal() {
        assertThat(AdminValues.toText(0)).isEqualTo("0");
        assertThat(AdminValues.toText(-12)).isEqualTo("-12");
        assertThat(AdminValues.toText(Long.MAX_VALUE)).isEqualTo("9223372036854775807");
    }

    @Test
    void numericHasNoExponent() {
        assertThat(AdminValues.toText(new BigDecimal("1E+3"))).isEqualTo("1000");
        assertThat(AdminValues.toText(new BigDecimal("12.50"))).isEqualTo("12.50");
    }

    @Test
    void byteaIsLowercaseHexWithBackslashX() {
        assertThat(AdminValues.toText(new byte[] {0x00, (byte) 0xAB, 0x7f})).isEqualTo("\\x00ab7f");
        assertThat(AdminValues.toText(new byte[0])).isEqualTo("\\x");
    }

    @Test
    void nullStaysNullAndEmptyStaysEmpty() {
        assertThat(AdminValues.toText(null)).isNull();
        assertThat(AdminValues.toText("")).isEqualTo("");
    }

    @Test
    void timestampsAreUtcToTheSecond() {
        assertThat(AdminValues.timestamp(FakeAdminContext.NOW_MILLIS)).isEqualTo("2026-11-30 10:37:22 UTC");
        assertThat(AdminValues.timestamp(FakeAdminContext.NOW_MILLIS + 999)).isEqualTo("2026-11-30 10:37:22 UTC");
        assertThat(AdminValues.timestamp(0)).isEqualTo("1970-01-01 00:00:00 UTC");
    }

    @Test
    void pointersAndWidth9() {
        assertThat(AdminValues.pointer(0x55d0c1a2b3c0L)).isEqualTo("0x55d0c1a2b3c0");
        assertThat(AdminValues.width9(30)).isEqualTo("       30");
        assertThat(AdminValues.width9(1234567890)).isEqualTo("1234567890");
    }

    @Test
    void otherTypesAreRefused() {
        assertThatThrownBy(() -> AdminValues.toText(1.5)).isInstanceOf(IllegalArgumentException.class);
    }
}
