package io.sluice.admin;

/**
 * The seven debug columns of SHOW SOCKETS / ACTIVE_SOCKETS. They describe PgBouncer's own I/O
 * buffers; Sluice fills what maps onto its channels and leaves the rest 0 ({@link #NONE}).
 */
public record SocketBuffers(
        int recvPos,
        int pktPos,
        int pktRemain,
        int sendPos,
        int sendRemain,
        int pktAvail,
        int sendAvail) {

    public static final SocketBuffers NONE = new SocketBuffers(0, 0, 0, 0, 0, 0, 0);
}
