package io.sluice.admin;

/** The three forms of SHUTDOWN. */
public enum ShutdownMode {
    /** Exit now; the console connection gets no reply. */
    IMMEDIATE,
    /** Close TCP listeners, pause, exit once servers are released. */
    WAIT_FOR_SERVERS,
    /** Close TCP listeners, exit once all clients have gone. */
    WAIT_FOR_CLIENTS
}
