import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.sluice.net.Transport;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The least a login can cost on Netty: a server that answers PostgreSQL logins and queries
 * itself, from memory, with no server connection behind it. Trust login (AuthenticationOk, the
 * ParameterStatus values libpq and pgbench read, BackendKeyData, ReadyForQuery); every query,
 * simple or extended, gets one row of three int4 columns (1, NULL, 0: also what pgbench's own
 * start-up query on pgbench_accounts needs). pgbench -C through it costs what
 * Netty's accept, channel set-up, reads, writes and close cost per connection on the transport
 * and JVM options Sluice uses, and nothing of a pooler: no pool, no relay, no session state.
 * A pooler on Netty that logs a client in and relays its query cannot spend less per login.
 *
 * One event loop and one read per connection per loop turn, as Sluice has (net.FairReads).
 * Not a database: no errors, no COPY, no transactions.
 *
 *   java -cp server/target/sluice.jar bench/LoginFloor.java LISTEN_PORT
 */
public final class LoginFloor {
    private static final int SSL_REQUEST = 80877103;
    private static final int GSS_REQUEST = 80877104;
    private static final int COLUMNS = 3;
    private static final String[][] PARAMETERS = {
            {"server_version", "15.0"}, {"server_encoding", "UTF8"}, {"client_encoding", "UTF8"},
            {"DateStyle", "ISO, MDY"}, {"integer_datetimes", "on"}, {"standard_conforming_strings", "on"},
            {"TimeZone", "UTC"}, {"application_name", ""}};

    /** One connection: the startup packet first, then typed messages; answers each as it comes. */
    private static final class Session extends ByteToMessageDecoder {
        private boolean started;

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> unused) {
            ByteBuf out = ctx.alloc().buffer(256);
            while (true) {
                int header = started ? 5 : 4;
                if (in.readableBytes() < header) {
                    break;
                }
                int length = in.getInt(in.readerIndex() + header - 4);
                if (in.readableBytes() < header - 4 + length) {
                    break;
                }
                if (!started) {
                    int code = in.getInt(in.readerIndex() + 4);
                    in.skipBytes(length);
                    if (code == SSL_REQUEST || code == GSS_REQUEST) {
                        out.writeByte('N');
                    } else {
                        started = true;
                        greet(out);
                    }
                    continue;
                }
                byte type = in.readByte();
                in.skipBytes(length);
                if (type == 'X') {
                    out.release();
                    ctx.close();
                    return;
                }
                answer(type, out);
            }
            if (out.isReadable()) {
                ctx.writeAndFlush(out, ctx.voidPromise());
            } else {
                out.release();
            }
        }

        private static void greet(ByteBuf out) {
            message(out, 'R', 4).writeInt(0);
            for (String[] p : PARAMETERS) {
                byte[] name = p[0].getBytes(StandardCharsets.US_ASCII);
                byte[] value = p[1].getBytes(StandardCharsets.US_ASCII);
                message(out, 'S', name.length + value.length + 2)
                        .writeBytes(name).writeByte(0).writeBytes(value).writeByte(0);
            }
            message(out, 'K', 8).writeInt(1).writeInt(2);
            message(out, 'Z', 1).writeByte('I');
        }

        /** Query: row description, the row, its tag, ready; the extended messages one answer each. */
        private static void answer(byte type, ByteBuf out) {
            switch (type) {
                case 'Q' -> {
                    rowDescription(out);
                    row(out);
                    tag(out);
                    message(out, 'Z', 1).writeByte('I');
                }
                case 'P' -> message(out, '1', 0);
                case 'B' -> message(out, '2', 0);
                case 'D' -> rowDescription(out);
                case 'E' -> {
                    row(out);
                    tag(out);
                }
                case 'C' -> message(out, '3', 0);
                case 'S' -> message(out, 'Z', 1).writeByte('I');
                default -> { } // Flush and anything else: nothing to say
            }
        }

        private static void rowDescription(ByteBuf out) {
            message(out, 'T', 2 + COLUMNS * (2 + 18)).writeShort(COLUMNS);
            for (int i = 0; i < COLUMNS; i++) {
                // name, table oid, column number, type oid (int4), type size, type modifier, text format
                out.writeByte('a' + i).writeByte(0).writeInt(0).writeShort(0)
                        .writeInt(23).writeShort(4).writeInt(-1).writeShort(0);
            }
        }

        /** 1, NULL, 0: to pgbench's start-up query, a table of one row that is not partitioned. */
        private static void row(ByteBuf out) {
            message(out, 'D', 2 + 5 + 4 + 5).writeShort(COLUMNS)
                    .writeInt(1).writeByte('1').writeInt(-1).writeInt(1).writeByte('0');
        }

        private static void tag(ByteBuf out) {
            byte[] tag = "SELECT 1".getBytes(StandardCharsets.US_ASCII);
            message(out, 'C', tag.length + 1).writeBytes(tag).writeByte(0);
        }

        private static ByteBuf message(ByteBuf out, char type, int bodyLength) {
            return out.writeByte(type).writeInt(bodyLength + 4);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    public static void main(String[] args) throws InterruptedException {
        int listenPort = Integer.parseInt(args[0]);
        Transport transport = new Transport();
        EventLoopGroup loop = transport.newGroup(1);
        new ServerBootstrap().group(loop).channel(transport.serverSocketChannel())
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.RCVBUF_ALLOCATOR, new AdaptiveRecvByteBufAllocator().maxMessagesPerRead(1))
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel client) {
                        client.pipeline().addLast(new Session());
                    }
                })
                .bind("127.0.0.1", listenPort).sync().channel().closeFuture().sync();
    }
}
