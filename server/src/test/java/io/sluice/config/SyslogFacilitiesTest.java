package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SyslogFacilitiesTest {
    @Test
    void pgBouncersNamesWithSyslogsCodesAndDaemonForTheRest() {
        assertThat(SyslogFacilities.code("auth")).hasValue(4);
        assertThat(SyslogFacilities.code("authpriv")).hasValue(10);
        assertThat(SyslogFacilities.code("daemon")).hasValue(3);
        assertThat(SyslogFacilities.code("user")).hasValue(1);
        assertThat(SyslogFacilities.code("local0")).hasValue(16);
        assertThat(SyslogFacilities.code("local7")).hasValue(23);
        assertThat(SyslogFacilities.code("kern")).isEmpty();
        assertThat(SyslogFacilities.codeOrDaemon("local9")).isEqualTo(3);
        assertThat(SyslogFacilities.codeOrDaemon("local5")).isEqualTo(21);
    }
}
