package io.sluice.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** When max_client_conn clients would outgrow the JVM's heap, and the -Xmx the warning advises. */
class ClientHeapTest {
    private static final long MIB = 1 << 20;

    @Test
    void theDefaultFitsThePackagesHeap() {
        assertThat(ClientHeap.warning(100, 245 * MIB)).isEmpty();
        assertThat(ClientHeap.warning(10_000, 245 * MIB)).isEmpty();
    }

    @Test
    void moreClientsThanTheHeapHoldsAreNamedWithAFittingXmx() {
        // 48 MiB + 100,000 x 4.5 KiB = 488 MiB, advised as the next multiple of 64 MiB
        assertThat(ClientHeap.warning(100_000, 245 * MIB)).hasValue("max_client_conn = 100000 needs about 488 MiB"
                + " of heap when every client is connected, more than the JVM's maximum of 245 MiB: set -Xmx512m"
                + " in JAVA_OPTS (/etc/default/sluice or /etc/sysconfig/sluice in the packages)");
        long advised = 512 * MIB;
        assertThat(ClientHeap.warning(100_000, advised)).isEmpty();
    }

    @Test
    void theAdvisedXmxLeavesRoomForWhatTheJvmKeepsBack() {
        assertThat(ClientHeap.advisedXmxMib(500 * MIB)).isEqualTo(576);
        assertThat(ClientHeap.advisedXmxMib(440 * MIB)).isEqualTo(512);
    }

    @Test
    void theBoundIsTheEstimateItself() {
        long needed = ClientHeap.needed(50_000);
        assertThat(ClientHeap.warning(50_000, needed)).isEmpty();
        assertThat(ClientHeap.warning(50_000, needed - 1)).isPresent();
        assertThat(ClientHeap.warning(Integer.MAX_VALUE, Long.MAX_VALUE)).as("no -Xmx at all").isEmpty();
    }
}
