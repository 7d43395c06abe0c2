/* syscall-cost: what a system call costs on this machine, the figure that decides how Sluice on
 * io_uring (a loop turn's sends and receives in one io_uring_enter) compares with PgBouncer (one
 * system call each) per transaction. Prints the median of 5 batches, in ns, of
 *   - getppid(), the cheapest call there is: the kernel's entry and exit alone, and
 *   - a 1-byte send() plus the recv() that takes it on a loopback TCP connection, the pair a
 *     pooler makes for every message it relays.
 * Loopback only; bounded: 5 x 200,000 calls and 5 x 50,000 pairs.
 * Build and run: gcc -O2 -o /tmp/syscall-cost bench/syscall-cost.c && /tmp/syscall-cost */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define BATCHES 5

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v) {
    qsort(v, BATCHES, sizeof *v, by_value);
    return v[BATCHES / 2];
}

/* a connected pair of loopback TCP sockets with Nagle off, as poolers set them */
static void tcp_pair(int *a, int *b) {
    struct sockaddr_in addr = {.sin_family = AF_INET};
    socklen_t len = sizeof addr;
    inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    int l = socket(AF_INET, SOCK_STREAM, 0);
    if (l < 0 || bind(l, (struct sockaddr *)&addr, sizeof addr) || listen(l, 1) ||
        getsockname(l, (struct sockaddr *)&addr, &len)) {
        perror("listen on 127.0.0.1");
        exit(1);
    }
    *a = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(*a, (struct sockaddr *)&addr, sizeof addr) || (*b = accept(l, NULL, NULL)) < 0) {
        perror("connect to 127.0.0.1");
        exit(1);
    }
    int one = 1;
    setsockopt(*a, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    setsockopt(*b, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    close(l);
}

int main(void) {
    double calls[BATCHES], pairs[BATCHES];
    const int n_calls = 200000, n_pairs = 50000;
    for (int b = 0; b < BATCHES; b++) {
        double t0 = now_ns();
        for (int i = 0; i < n_calls; i++)
            syscall(SYS_getppid); /* the raw call: the kernel's cost, not a libc wrapper's */
        calls[b] = (now_ns() - t0) / n_calls;
    }
    int a, z;
    tcp_pair(&a, &z);
    char c = 'x';
    for (int b = 0; b < BATCHES; b++) {
        double t0 = now_ns();
        for (int i = 0; i < n_pairs; i++) {
            if (send(a, &c, 1, 0) != 1 || recv(z, &c, 1, 0) != 1) {
                perror("loopback send/recv");
                return 1;
            }
        }
        pairs[b] = (now_ns() - t0) / n_pairs;
    }
    printf("getppid: %.0f ns a call\n", median(calls));
    printf("loopback TCP send + recv of 1 byte: %.0f ns a pair\n", median(pairs));
    return 0;
}
