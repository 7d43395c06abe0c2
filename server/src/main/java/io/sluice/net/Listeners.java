package io.sluice.net;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannelRecvByteBufAllocator;
import io.netty.channel.socket.nio.NioChannelOption;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.channel.unix.UnixChannelOption;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.net.StandardSocketOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The listening sockets: TCP on each {@code listen_addr} and the unix socket
 * {@code <unix_socket_dir>/.s.PGSQL.<port>} with {@code unix_socket_mode}/{@code unix_socket_group},
 * each with {@code listen_backlog} as its accept queue.
 */
public final class Listeners {
    private final EventLoopGroup group;
    private final Transport transport;
    private final AcceptFailures acceptFailures;
    private final AcceptDrain drain = new AcceptDrain();
    private final FairReads fairReads = new FairReads(drain::beforeRead);
    /** Written at bind and close, read by RELOAD and the console from other threads. */
    private final List<Channel> tcp = new CopyOnWriteArrayList<>();
    /** tcp_defer_accept: set on each TCP listener before it binds, and again when it changes. */
    private volatile boolean deferAccept;
    private Channel unix;
    /** Every listener close begun so far: a later close-all waits for an earlier close-TCP too. */
    private CompletableFuture<Void> closing = CompletableFuture.completedFuture(null);
    private Path unixPath;
    /** The inode our unix socket file was bound as: a successor may have bound the path since. */
    private Object unixFileKey;
    private final Consumer<String> info;
    private final Consumer<String> warning;

    /**
     * @param errorLog where an accept failure is reported, as PgBouncer's ERROR line
     * @param warning  where an address that cannot be bound is reported (PgBouncer's WARNING)
     * @param info     where each bound listener and a unix socket path taken over from a
     *                 running process are reported
     */
    public Listeners(EventLoopGroup group, Transport transport, Consumer<String> errorLog, Consumer<String> warning,
                     Consumer<String> info) {
        this.group = group;
        this.info = info;
        this.warning = warning;
        this.transport = transport;
        this.acceptFailures = new AcceptFailures(errorLog);
    }

    /**
     * tcp_defer_accept: for the TCP listeners {@link #bind} makes from now on (call it before),
     * and, when it changes, for those already bound (RELOAD), as PgBouncer does.
     */
    public synchronized void deferAccept(boolean on) {
        if (on == deferAccept) {
            return;
        }
        deferAccept = on;
        for (Channel listener : tcp) {
            setDeferAccept(listener, on);
        }
    }

    /** A listener the option cannot be set on still listens, as without TCP_DEFER_ACCEPT. */
    private void setDeferAccept(Channel listener, boolean on) {
        try {
            DeferAccept.set(listener, on);
        } catch (RuntimeException e) {
            warning.accept("could not set TCP_DEFER_ACCEPT: " + reason(e));
        }
    }

    /** The read allocator for every connection on the clients' loop: it gives the accept queues their turn. */
    public FairReads fairReads() {
        return fairReads;
    }

    /**
     * Binds everything; {@code init} gets each accepted channel and whether it came over the
     * unix socket; TCP clients get {@code tuning}'s socket options as they are accepted (read at
     * each accept, so RELOAD applies to new clients). As PgBouncer: every address a name resolves
     * to is bound, one that cannot be bound is a warning, and only a name that does not resolve or
     * nothing bound at all fails. {@code mustBindAll} (a handover successor, whose failure lets the
     * old process keep serving) fails on any address instead. A failure unbinds what was bound.
     */
    public void bind(List<String> listenAddrs, int port, int backlog, boolean reusePort, Supplier<TcpTuning> tuning,
                     String unixSocketDir, int unixSocketMode, String unixSocketGroup, boolean mustBindAll,
                     BiConsumer<Channel, Boolean> init) throws IOException {
        // logged at the end, in PgBouncer's order: each TCP address, then the unix socket
        List<Runnable> lines = new ArrayList<>();
        List<String> unixWarnings = new ArrayList<>(1);
        try {
            // The unix socket is bound before the TCP ports and put in place right after them,
            // before anything is logged: a start script or test that sees the port answer (or
            // the "listening on" line) finds the socket file too, as with PgBouncer, which binds
            // both before its loop runs
            if (unixSocketDir != null && !unixSocketDir.isEmpty() && transport.nativeSockets()) {
                bindUnix(Path.of(unixSocketDir, ".s.PGSQL." + port), backlog, reusePort, unixSocketMode,
                        unixSocketGroup, mustBindAll, init, unixWarnings);
            }
            for (String addr : listenAddrs) {
                for (InetSocketAddress sa : resolve(addr, port)) {
                    ListenerKeepalive keepalive = new ListenerKeepalive();
                    boolean keepaliveAtBind = tuning.get().keepalive();
                    boolean defer = deferAccept;
                    ServerBootstrap b = bootstrap(transport.serverSocketChannel(), backlog, server -> {
                                keepalive.setBeforeBind(server, keepaliveAtBind);
                                setDeferAccept(server, defer);
                            }, ch -> {
                                tuning.get().apply(ch, keepalive.on());
                                init.accept(ch, false);
                            }).option(ChannelOption.SO_REUSEADDR, true);
                    if (reusePort) {
                        // so_reuseport: every process of the group binds the same port and the kernel
                        // spreads new connections over their listening sockets
                        if (transport.nativeSockets()) {
                            b.option(UnixChannelOption.SO_REUSEPORT, true);
                        } else {
                            b.option(NioChannelOption.of(StandardSocketOptions.SO_REUSEPORT), true);
                        }
                    }
                    Channel listener;
                    try {
                        listener = listen(b, sa, backlog);
                    } catch (IOException e) {
                        if (mustBindAll) {
                            throw e;
                        }
                        String line = "cannot listen on " + shown(sa) + ":" + port + ": bind(): " + reason(e);
                        lines.add(() -> warning.accept(line));
                        continue;
                    }
                    tcp.add(listener);
                    // PgBouncer's words. Its "*" is two wildcard sockets, IPv4 and IPv6; here one
                    // dual-stack socket stands for both when the system has IPv6
                    boolean dualStack = "*".equals(addr)
                            && ((InetSocketAddress) listener.localAddress()).getAddress() instanceof Inet6Address;
                    for (String shown : dualStack ? List.of("0.0.0.0", "[::]") : List.of(shown(sa))) {
                        lines.add(() -> info.accept("listening on " + shown + ":" + port));
                    }
                }
            }
            if (unix != null) {
                publishUnix(mustBindAll, unixWarnings);
            }
            if (unix != null) {
                String line = "listening on unix:" + unixPath;
                lines.add(() -> info.accept(line));
            }
            unixWarnings.forEach(line -> lines.add(() -> warning.accept(line)));
            if (tcp.isEmpty() && unix == null) {
                throw new IOException("nowhere to listen on");
            }
        } catch (RuntimeException | IOException e) {
            closeAll();
            throw e instanceof IOException io ? io : new IOException("could not listen: " + e.getMessage(), e);
        } finally {
            lines.forEach(Runnable::run);
        }
    }

    private void bindUnix(Path path, int backlog, boolean reusePort, int mode, String group, boolean mustBind,
                          BiConsumer<Channel, Boolean> init, List<String> warnings) throws IOException {
        unixPath = path;
        try {
            UnixSocketFile.clearForBind(unixPath, reusePort, info);
            // Bound under a name of its own, then renamed into place: a successor's takeover
            // leaves no instant without a socket at the path, and Netty, which deletes the
            // bound name when the listener closes, then deletes nothing at all: the old
            // process of a restart closes its listener at SIGTERM, while the path is the
            // successor's. Our own file goes in closeAll, if it is still ours.
            Path bound = UnixSocketFile.bindName(unixPath);
            Files.deleteIfExists(bound);
            unix = listen(bootstrap(transport.serverDomainSocketChannel(), backlog, server -> { },
                            ch -> init.accept(ch, true)),
                    new DomainSocketAddress(bound.toString()), backlog);
            applyMode(bound, mode, group);
            unixFileKey = UnixSocketFile.fileKey(bound);
        } catch (RuntimeException | IOException e) {
            unixFailed(e, mustBind, warnings);
        }
    }

    /** Renames the bound unix socket into its path; a failure there is a failure to bind it. */
    private void publishUnix(boolean mustBind, List<String> warnings) throws IOException {
        try {
            Files.move(UnixSocketFile.bindName(unixPath), unixPath, StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
        } catch (RuntimeException | IOException e) {
            unixFailed(e, mustBind, warnings);
        }
    }

    private void unixFailed(Exception e, boolean mustBind, List<String> warnings) throws IOException {
        if (mustBind) {
            if (e instanceof IOException io) {
                throw io;
            }
            throw (RuntimeException) e;
        }
        if (unix != null) {
            drain.remove(unix);
            close(unix);
            unix = null;
        }
        warnings.add("cannot listen on unix:" + unixPath + ": bind(): " + reason(e));
    }

    /** Every address {@code addr} names, as getaddrinfo gives PgBouncer; "*" is the wildcard. */
    private static List<InetSocketAddress> resolve(String addr, int port) throws IOException {
        if ("*".equals(addr)) {
            return List.of(new InetSocketAddress(port));
        }
        try {
            List<InetSocketAddress> out = new ArrayList<>();
            for (InetAddress a : InetAddress.getAllByName(addr)) {
                out.add(new InetSocketAddress(a, port));
            }
            return out;
        } catch (UnknownHostException e) {
            // PgBouncer dies with getaddrinfo's words (EAI_NONAME)
            throw new IOException("getaddrinfo('" + addr + "', '" + port + "') = Name or service not known [-2]", e);
        }
    }

    /** An address as PgBouncer's sa2str prints it: IPv6 in brackets. */
    private static String shown(InetSocketAddress sa) {
        InetAddress a = sa.getAddress();
        if (a.isAnyLocalAddress()) {
            return a instanceof Inet6Address ? "[::]" : "0.0.0.0";
        }
        return a instanceof Inet6Address ? "[" + a.getHostAddress().replaceAll("%.*$", "") + "]" : a.getHostAddress();
    }

    /** The system's reason alone ("Address already in use"), without Netty's "bind(..) failed with error(-98): ". */
    private static String reason(Throwable e) {
        Throwable t = e;
        while (t.getMessage() == null && t.getCause() != null) {
            t = t.getCause();
        }
        String m = String.valueOf(t.getMessage());
        int at = m.indexOf("): ");
        return at >= 0 ? m.substring(at + 3) : m;
    }

    /** How many times reads drained the accept queues; read it on the loop. */
    long acceptDrains() {
        return drain.drains();
    }

    /** Binds {@code b} to {@code address}; the accept drain takes its queue too from then on. */
    private Channel listen(ServerBootstrap b, java.net.SocketAddress address, int backlog) throws IOException {
        ChannelFuture bound = b.bind(address).awaitUninterruptibly();
        if (!bound.isSuccess()) {
            Throwable t = bound.cause();
            throw new IOException(t.getMessage() != null ? t.getMessage() : t.toString(), t);
        }
        Channel listener = bound.channel();
        drain.add(listener, group.next(), b.config().childHandler(), maxAccepts(backlog));
        return listener;
    }

    /** {@code beforeBind} gets the listening channel once it is registered, before it binds. */
    private ServerBootstrap bootstrap(Class<? extends io.netty.channel.ServerChannel> type, int backlog,
                                      java.util.function.Consumer<Channel> beforeBind,
                                      java.util.function.Consumer<Channel> init) {
        return new ServerBootstrap().group(group, group).channel(type)
                .option(ChannelOption.SO_BACKLOG, backlog)
                // accept until the queue is empty (up to a backlog's worth) on each wakeup, as
                // PgBouncer's accept loop does: Netty's default of 16 a turn let a burst of
                // quick connects overflow a 128-deep queue while the loop served the clients
                .option(ChannelOption.RCVBUF_ALLOCATOR,
                        new ServerChannelRecvByteBufAllocator().maxMessagesPerRead(maxAccepts(backlog)))
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel server) {
                        server.pipeline().addLast(acceptFailures);
                        beforeBind.accept(server);
                    }
                })
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        fairReads.apply(ch);
                        init.accept(ch);
                    }
                });
    }

    private static int maxAccepts(int backlog) {
        return Math.max(16, backlog);
    }

    private static void applyMode(Path path, int mode, String group) throws IOException {
        Set<PosixFilePermission> perms = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] order = {
            PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
            PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ};
        for (int bit = 0; bit < 9; bit++) {
            if ((mode & (1 << bit)) != 0) {
                perms.add(order[bit]);
            }
        }
        Files.setPosixFilePermissions(path, perms);
        if (group != null && !group.isEmpty()) {
            GroupPrincipal g = path.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByGroupName(group);
            Files.getFileAttributeView(path, PosixFileAttributeView.class).setGroup(g);
        }
    }

    /**
     * Stops accepting TCP clients; the unix socket stays for the console (SHUTDOWN WAIT_FOR_*).
     * Completes once the sockets are closed, those of an earlier call too: io_uring closes on a
     * later loop turn, and a connection it accepts until then is a client like any other.
     */
    public CompletableFuture<Void> closeTcp() {
        for (Channel c : tcp) {
            drain.remove(c);
            closing = CompletableFuture.allOf(closing, close(c));
        }
        tcp.clear();
        return closing;
    }

    /**
     * Stops accepting on every listener; completes as {@link #closeTcp()}. A stop after SIGINT's
     * closeTcp finds no TCP listener left and must still wait for that close: a loop stopped
     * before it finished printed Netty's rejected-task stack trace on every idle SIGINT.
     */
    public CompletableFuture<Void> closeAll() {
        closeTcp();
        if (unix != null) {
            drain.remove(unix);
            closing = CompletableFuture.allOf(closing, close(unix));
            unix = null;
            UnixSocketFile.deleteIfOurs(unixPath, unixFileKey);
        }
        return closing;
    }

    /**
     * Closes a listener, waiting for it unless on its own loop: there the close cannot finish
     * while we wait (io_uring completes it on a later turn).
     */
    private static CompletableFuture<Void> close(Channel listener) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        ChannelFuture closed = listener.close().addListener(f -> done.complete(null));
        if (!listener.eventLoop().inEventLoop()) {
            closed.syncUninterruptibly();
        }
        return done;
    }

    /** Bound TCP ports (tests pass port 0). */
    public List<Integer> tcpPorts() {
        List<Integer> ports = new ArrayList<>();
        for (Channel c : tcp) {
            ports.add(((InetSocketAddress) c.localAddress()).getPort());
        }
        return ports;
    }
}
