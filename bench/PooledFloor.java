import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.sluice.net.Transport;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The least a transaction pooler on Netty can spend on a login and a relayed transaction: trust
 * logins answered from memory (as bench/LoginFloor.java does), and each transaction relayed to
 * PostgreSQL through a pool of server connections, the server going back to the pool at the
 * ReadyForQuery that ends the transaction. With pgbench -C (CONNECT=1 FLOOR=pooled
 * bench/pgbench-compare.sh) its CPU per login is the floor for what Sluice does per login:
 * Netty's accept, channel set-up, reads, writes and close, the client's startup packet, one
 * server checked out and returned, and the messages relayed as slices of what was read. Nothing
 * else of a pooler: no users looked up, no parameters compared or set on the server, no stats,
 * no timers, no limits; a client that has to wait for a server waits in a plain FIFO line.
 *
 * Given an auth file whose first line holds a SCRAM-SHA-256 secret (as CLIENT_AUTH=scram-sha-256
 * writes it), every client logs in with SCRAM against that secret instead: the exchange with the
 * JDK's HMAC and SHA-256 (one instance of each, kept), a fresh nonce from SecureRandom, no user
 * name checked; a wrong proof closes the connection.
 *
 * Servers are opened when a transaction finds none idle, at most two connects in flight (as
 * Sluice's default), up to the pool size; each logs in as postgres to database postgres with
 * trust. One event loop for clients and servers, one read per connection per loop turn, as
 * Sluice has (net.FairReads). Not a pooler: no errors handled beyond closing the connection, no
 * COPY, no session state.
 *
 *   java -cp server/target/sluice.jar bench/PooledFloor.java LISTEN_PORT POSTGRES_PORT [POOL_SIZE [AUTH_FILE]]
 */
public final class PooledFloor {
    private static final int SSL_REQUEST = 80877103;
    private static final int GSS_REQUEST = 80877104;
    private static final int CONNECTS_IN_FLIGHT = 2;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String[][] PARAMETERS = {
            {"server_version", "15.0"}, {"server_encoding", "UTF8"}, {"client_encoding", "UTF8"},
            {"DateStyle", "ISO, MDY"}, {"integer_datetimes", "on"}, {"standard_conforming_strings", "on"},
            {"TimeZone", "UTC"}, {"application_name", ""}};

    private final Bootstrap connector;
    private final int poolSize;
    /** The SCRAM secret clients log in against; null: trust. */
    private final Scram scram;
    private final ArrayDeque<Server> idle = new ArrayDeque<>();
    private final ArrayDeque<Client> waiting = new ArrayDeque<>();
    private int servers;
    private int connecting;
    private final Mac hmacSha256;
    private final MessageDigest sha256;

    private PooledFloor(Bootstrap connector, int poolSize, Scram scram) throws GeneralSecurityException {
        this.connector = connector;
        this.poolSize = poolSize;
        this.scram = scram;
        this.hmacSha256 = Mac.getInstance("HmacSHA256");
        this.sha256 = MessageDigest.getInstance("SHA-256");
    }

    /** A stored SCRAM-SHA-256 secret: SCRAM-SHA-256$iterations:salt$StoredKey:ServerKey. */
    private record Scram(int iterations, String salt, byte[] storedKey, byte[] serverKey) {
        static Scram read(Path authFile) throws IOException {
            String line = Files.readAllLines(authFile).get(0);
            String secret = line.substring(line.indexOf("SCRAM-SHA-256$"), line.lastIndexOf('"'));
            String[] parts = secret.substring("SCRAM-SHA-256$".length()).split("[$:]");
            Base64.Decoder b64 = Base64.getDecoder();
            return new Scram(Integer.parseInt(parts[0]), parts[1], b64.decode(parts[2]), b64.decode(parts[3]));
        }

    }

    /** HMAC-SHA-256 with the one Mac the event loop keeps (a look-up in the JCA's providers per use costs more). */
    private byte[] hmac(byte[] key, String text) {
        try {
            hmacSha256.init(new SecretKeySpec(key, "HmacSHA256"));
        } catch (InvalidKeyException e) {
            throw new IllegalStateException(e);
        }
        return hmacSha256.doFinal(text.getBytes(StandardCharsets.UTF_8));
    }

    /** Gives {@code c} an idle server now, or queues it and opens one if the pool may grow. */
    private void checkout(Client c) {
        Server s = idle.pollFirst();
        if (s != null) {
            c.assign(s);
            return;
        }
        waiting.addLast(c);
        grow();
    }

    /** Opens servers while clients wait for more than are on their way, within the limits. */
    private void grow() {
        while (waiting.size() > connecting && servers + connecting < poolSize && connecting < CONNECTS_IN_FLIGHT) {
            connecting++;
            connector.clone().handler(new Server()).connect().addListener((ChannelFutureListener) f -> {
                if (!f.isSuccess()) {
                    connecting--;
                    System.err.println("connect failed: " + f.cause());
                }
            });
        }
    }

    /** A server that finished a transaction, or logged in: to the first waiting client, else idle. */
    private void release(Server s) {
        Client c = waiting.pollFirst();
        if (c != null) {
            c.assign(s);
        } else {
            idle.addLast(s);
        }
    }

    private static ByteBuf message(ByteBuf out, char type, int bodyLength) {
        return out.writeByte(type).writeInt(bodyLength + 4);
    }

    /** One client connection: its startup packet, then transactions relayed to a server. */
    private final class Client extends ByteToMessageDecoder {
        private Channel channel;
        private boolean started;
        /** Mid-SCRAM: what the server answers must sign (client-first-bare, server-first); else null. */
        private String clientFirstBare;
        private String serverFirst;
        private Server server;
        /** What arrived while waiting for a server, sent when one is assigned. */
        private CompositeByteBuf pending;

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            channel = ctx.channel();
        }

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> unused) {
            if (!started) {
                if (in.readableBytes() < 8 || in.readableBytes() < in.getInt(in.readerIndex())) {
                    return;
                }
                int length = in.getInt(in.readerIndex());
                int code = in.getInt(in.readerIndex() + 4);
                in.skipBytes(length);
                ByteBuf out = ctx.alloc().buffer(256);
                if (code == SSL_REQUEST || code == GSS_REQUEST) {
                    out.writeByte('N');
                } else if (scram != null) {
                    started = true;
                    byte[] mechanism = "SCRAM-SHA-256\0\0".getBytes(StandardCharsets.US_ASCII);
                    message(out, 'R', 4 + mechanism.length).writeInt(10).writeBytes(mechanism);
                    clientFirstBare = "";
                } else {
                    started = true;
                    greet(out);
                }
                ctx.writeAndFlush(out, ctx.voidPromise());
                return;
            }
            if (clientFirstBare != null) {
                scramStep(ctx, in);
                return;
            }
            // the run of whole messages at the front goes on as one slice; a Terminate ends it all
            int start = in.readerIndex();
            int end = start;
            boolean terminate = false;
            while (in.writerIndex() - end >= 5) {
                int length = in.getInt(end + 1);
                if (in.writerIndex() - end < 1 + length) {
                    break;
                }
                if (in.getByte(end) == 'X') {
                    terminate = true;
                    break;
                }
                end += 1 + length;
            }
            if (end > start) {
                ByteBuf run = in.readRetainedSlice(end - start);
                if (server != null) {
                    server.channel.writeAndFlush(run, server.channel.voidPromise());
                } else if (pending != null) {
                    pending.addComponent(true, run);
                } else {
                    pending = ctx.alloc().compositeBuffer().addComponent(true, run);
                    checkout(this);
                }
            }
            if (terminate) {
                in.skipBytes(in.readableBytes());
                ctx.close();
            }
        }

        /** One SASL message ('p'): the client-first, then the client-final with its proof. */
        private void scramStep(ChannelHandlerContext ctx, ByteBuf in) {
            if (in.readableBytes() < 5 || in.readableBytes() < 1 + in.getInt(in.readerIndex() + 1)) {
                return;
            }
            int end = in.readerIndex() + 1 + in.getInt(in.readerIndex() + 1);
            in.skipBytes(5);
            int code;
            byte[] data;
            if (serverFirst == null) {
                while (in.readByte() != 0) {
                    // the mechanism's name: there is one
                }
                String first = in.readCharSequence(in.readInt(), StandardCharsets.UTF_8).toString();
                clientFirstBare = first.substring(first.indexOf(",,") + 2);
                byte[] nonce = new byte[18];
                RANDOM.nextBytes(nonce);
                String clientNonce = clientFirstBare.substring(clientFirstBare.indexOf("r=") + 2);
                serverFirst = "r=" + clientNonce + Base64.getEncoder().encodeToString(nonce)
                        + ",s=" + scram.salt() + ",i=" + scram.iterations();
                code = 11;
                data = serverFirst.getBytes(StandardCharsets.UTF_8);
            } else {
                String last = in.readCharSequence(end - in.readerIndex(), StandardCharsets.UTF_8).toString();
                int proofAt = last.lastIndexOf(",p=");
                String auth = clientFirstBare + "," + serverFirst + "," + last.substring(0, proofAt);
                byte[] key = hmac(scram.storedKey(), auth);
                byte[] proof = Base64.getDecoder().decode(last.substring(proofAt + 3));
                for (int i = 0; i < key.length; i++) {
                    key[i] ^= proof[i];
                }
                if (!Arrays.equals(sha256.digest(key), scram.storedKey())) {
                    throw new IllegalStateException("wrong password");
                }
                code = 12;
                data = ("v=" + Base64.getEncoder().encodeToString(hmac(scram.serverKey(), auth)))
                        .getBytes(StandardCharsets.UTF_8);
                clientFirstBare = null;
            }
            in.readerIndex(end);
            ByteBuf out = ctx.alloc().buffer(256);
            message(out, 'R', 4 + data.length).writeInt(code).writeBytes(data);
            if (clientFirstBare == null) {
                greet(out);
            }
            ctx.writeAndFlush(out, ctx.voidPromise());
        }

        void assign(Server s) {
            server = s;
            s.client = this;
            ByteBuf p = pending;
            pending = null;
            s.channel.writeAndFlush(p, s.channel.voidPromise());
        }

        /** The transaction ended: the server goes back, this client checks out again at its next message. */
        void done() {
            Server s = server;
            server = null;
            s.client = null;
            release(s);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            // pgbench -S ends each transaction before it leaves; a client gone mid-transaction takes its server down
            if (server != null) {
                server.channel.close();
            }
            waiting.remove(this);
            if (pending != null) {
                pending.release();
                pending = null;
            }
            super.channelInactive(ctx);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }

        private void greet(ByteBuf out) {
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
    }

    /** One server connection: logs in, then relays each reply to its client up to ReadyForQuery. */
    private final class Server extends ByteToMessageDecoder {
        private Channel channel;
        private boolean loggedIn;
        private Client client;

        @Override
        public void channelActive(ChannelHandlerContext ctx) throws Exception {
            channel = ctx.channel();
            byte[] user = "user\0postgres\0database\0postgres\0\0".getBytes(StandardCharsets.US_ASCII);
            ByteBuf startup = ctx.alloc().buffer(8 + user.length);
            startup.writeInt(8 + user.length).writeInt(196608).writeBytes(user);
            ctx.writeAndFlush(startup, ctx.voidPromise());
            super.channelActive(ctx);
        }

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> unused) {
            int start = in.readerIndex();
            int end = start;
            boolean ready = false;
            while (!ready && in.writerIndex() - end >= 5) {
                int length = in.getInt(end + 1);
                if (in.writerIndex() - end < 1 + length) {
                    break;
                }
                byte type = in.getByte(end);
                if (type == 'R' && in.getInt(end + 5) != 0) {
                    throw new IllegalStateException("the floor logs in with trust only");
                }
                // idle again: the transaction is over (pgbench -S runs no explicit transactions)
                ready = type == 'Z' && in.getByte(end + 5) == 'I';
                end += 1 + length;
            }
            if (end == start) {
                return;
            }
            if (!loggedIn) {
                in.skipBytes(end - start);
                if (ready) {
                    loggedIn = true;
                    connecting--;
                    servers++;
                    release(this);
                    grow();
                }
                return;
            }
            Client c = client;
            if (c == null) {
                in.skipBytes(end - start); // said between transactions (a notice): nobody to tell
                return;
            }
            ByteBuf run = in.readRetainedSlice(end - start);
            c.channel.writeAndFlush(run, c.channel.voidPromise());
            if (ready) {
                c.done();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            if (loggedIn) {
                servers--;
                idle.remove(this);
            } else {
                connecting--;
            }
            if (client != null) {
                client.channel.close();
            }
            super.channelInactive(ctx);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            System.err.println("server: " + cause);
            ctx.close();
        }
    }

    public static void main(String[] args) throws InterruptedException, IOException, GeneralSecurityException {
        int listenPort = Integer.parseInt(args[0]);
        int postgresPort = Integer.parseInt(args[1]);
        int poolSize = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        Scram scram = args.length > 3 && Files.readString(Path.of(args[3])).contains("SCRAM-SHA-256$")
                ? Scram.read(Path.of(args[3])) : null;
        Transport transport = new Transport();
        EventLoopGroup loop = transport.newGroup(1);
        RecvByteBufAllocator oneRead = new AdaptiveRecvByteBufAllocator().maxMessagesPerRead(1);
        Bootstrap connector = new Bootstrap().group(loop).channel(transport.socketChannel())
                .option(ChannelOption.TCP_NODELAY, true).option(ChannelOption.RCVBUF_ALLOCATOR, oneRead)
                .remoteAddress(new InetSocketAddress("127.0.0.1", postgresPort));
        PooledFloor pool = new PooledFloor(connector, poolSize, scram);
        new ServerBootstrap().group(loop).channel(transport.serverSocketChannel())
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.RCVBUF_ALLOCATOR, oneRead)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel client) {
                        client.pipeline().addLast(pool.new Client());
                    }
                })
                .bind("127.0.0.1", listenPort).sync().channel().closeFuture().sync();
    }
}
