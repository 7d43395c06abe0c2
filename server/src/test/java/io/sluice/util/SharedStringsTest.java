package io.sluice.util;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SharedStringsTest {

    @Test
    void equalValuesBecomeOneInstance() {
        SharedStrings strings = new SharedStrings(10, 16);
        String first = strings.share(new String("UTF8"));
        assertThat(strings.share(new String("UTF8"))).isSameAs(first);
        assertThat(strings.share(new String("ISO, MDY"))).isNotSameAs(first).isEqualTo("ISO, MDY");
    }

    @Test
    void pastTheLimitAndForLongValuesTheStringItself() {
        SharedStrings strings = new SharedStrings(2, 8);
        strings.share("a");
        strings.share("b");
        String third = new String("c");
        assertThat(strings.share(third)).isSameAs(third);
        assertThat(strings.share(new String("c"))).isNotSameAs(third);
        assertThat(strings.share(new String("a"))).isSameAs(strings.share("a"));
        String tooLong = new String("application");
        assertThat(new SharedStrings(10, 8).share(tooLong)).isSameAs(tooLong);
    }

    @Test
    void theProcessWideInstanceSharesToo() {
        String first = SharedStrings.of(new String("sluice-shared-test"));
        assertThat(SharedStrings.of(new String("sluice-shared-test"))).isSameAs(first);
    }
}
