package io.sluice.it;

import io.sluice.testkit.FreePorts;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A man in the middle for PostgreSQL's TLS, on 127.0.0.1: answers the pooler's SSLRequest with
 * 'S' and its own certificate, opens its own TLS session to PostgreSQL, and relays the
 * decrypted bytes both ways. What channel binding is there to catch. Daemon threads, two per
 * relayed connection; {@link #close()} ends them all.
 */
final class TlsInterceptor implements AutoCloseable {
    final int port;
    private final ServerSocket listener;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    /**
     * @param presented the TLS context whose certificate the pooler is shown
     * @param toServer  the TLS context towards PostgreSQL (it must trust PostgreSQL's certificate)
     */
    TlsInterceptor(int serverPort, SSLContext presented, SSLContext toServer) throws IOException {
        port = FreePorts.next();
        listener = new ServerSocket();
        listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        daemon(() -> {
            while (!listener.isClosed()) {
                try {
                    Socket pooler = listener.accept();
                    sockets.add(pooler);
                    daemon(() -> relay(pooler, serverPort, presented, toServer));
                } catch (IOException e) {
                    return; // closed
                }
            }
        });
    }

    private void relay(Socket pooler, int serverPort, SSLContext presented, SSLContext toServer) {
        try {
            new DataInputStream(pooler.getInputStream()).readFully(new byte[8]); // the SSLRequest
            pooler.getOutputStream().write('S');
            SSLSocket front = (SSLSocket) presented.getSocketFactory().createSocket(pooler, null, true);
            front.setUseClientMode(false);
            sockets.add(front);
            Socket plain = new Socket("127.0.0.1", serverPort);
            sockets.add(plain);
            plain.getOutputStream().write(TlsClients.SSL_REQUEST);
            if (plain.getInputStream().read() != 'S') {
                throw new IOException("PostgreSQL refused SSL");
            }
            SSLSocket back = (SSLSocket) toServer.getSocketFactory().createSocket(plain, "127.0.0.1", serverPort, true);
            sockets.add(back);
            back.startHandshake();
            daemon(() -> pump(back, front));
            pump(front, back);
        } catch (IOException e) {
            closeQuietly(pooler);
        }
    }

    /** Copies until either side ends, then closes both. */
    private static void pump(Socket from, Socket to) {
        byte[] buf = new byte[16384];
        try (from; to) {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            for (int n; (n = in.read(buf)) >= 0; ) {
                out.write(buf, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // one side closed: the try closes the other
        }
    }

    private static void daemon(Runnable r) {
        Thread t = new Thread(r, "tls-interceptor");
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        sockets.forEach(TlsInterceptor::closeQuietly);
    }
}
