/*
 * delay-relay: a TCP relay that holds every byte for a fixed time in each direction, standing in
 * for a network link where the kernel offers no netem qdisc (bench/pressure-compare.sh's remote
 * stage). Each accepted connection gets a connection to the target; per direction a reader
 * thread stamps what it reads with its arrival time and a writer thread sends it on at
 * arrival + DELAY_US (clock_nanosleep on CLOCK_MONOTONIC, absolute, so waits do not add up).
 * The first bytes a client sends are held one round trip more (2 x DELAY_US): TCP's handshake,
 * which the relay's local accept() answers at once, costs that round trip on a real link.
 *
 *   delay-relay LISTEN_ADDR LISTEN_PORT TARGET_ADDR TARGET_PORT DELAY_US
 *
 * Build: cc -O2 -pthread -o delay-relay delay-relay.c. Runs until killed.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct chunk {
    struct chunk *next;
    struct timespec due;
    size_t len;
    char data[];
};

struct pipe {                  /* one direction of one connection */
    int from, to;
    long extra_first_us;       /* held on the first chunk only */
    pthread_mutex_t lock;
    pthread_cond_t ready;
    struct chunk *head, *tail;
    int eof;
    struct pipe *other;
    int *refs;                 /* all four threads share it: the last one out closes and frees */
};

static long delay_us;
static struct sockaddr_in target;

static void leave(struct pipe *p) {
    if (__atomic_sub_fetch(p->refs, 1, __ATOMIC_SEQ_CST) == 0) {
        struct pipe *first = p->other < p ? p->other : p;   /* both pipes share one allocation */
        close(first->from);
        close(first->to);
        free(p->refs);
        free(first);
    }
}

static void add_us(struct timespec *t, long us) {
    t->tv_nsec += us * 1000;
    while (t->tv_nsec >= 1000000000L) {
        t->tv_nsec -= 1000000000L;
        t->tv_sec++;
    }
}

static void *reader(void *arg) {
    struct pipe *p = arg;
    long extra = p->extra_first_us;
    for (;;) {
        struct chunk *c = malloc(sizeof *c + 65536);
        ssize_t n = c ? read(p->from, c->data, 65536) : -1;
        pthread_mutex_lock(&p->lock);
        if (n <= 0) {
            free(c);
            p->eof = 1;
            pthread_cond_signal(&p->ready);
            pthread_mutex_unlock(&p->lock);
            leave(p);
            return NULL;
        }
        c->len = (size_t) n;
        c->next = NULL;
        clock_gettime(CLOCK_MONOTONIC, &c->due);
        add_us(&c->due, delay_us + extra);
        extra = 0;
        if (p->tail) p->tail->next = c; else p->head = c;
        p->tail = c;
        pthread_cond_signal(&p->ready);
        pthread_mutex_unlock(&p->lock);
    }
}

static void *writer(void *arg) {
    struct pipe *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        while (!p->head && !p->eof) pthread_cond_wait(&p->ready, &p->lock);
        struct chunk *c = p->head;
        if (c) {
            p->head = c->next;
            if (!p->head) p->tail = NULL;
        }
        pthread_mutex_unlock(&p->lock);
        if (!c) break;                                      /* eof and drained */
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &c->due, NULL) == EINTR) { }
        size_t off = 0;
        while (off < c->len) {
            ssize_t w = write(p->to, c->data + off, c->len - off);
            if (w <= 0) break;
            off += (size_t) w;
        }
        int failed = off < c->len;
        free(c);
        if (failed) break;
    }
    shutdown(p->to, SHUT_WR);                               /* pass the half-close on, late like data */
    shutdown(p->from, SHUT_RD);                             /* and wake our reader if it still reads */
    pthread_mutex_lock(&p->lock);                           /* drop what a failed write left queued */
    while (!p->eof) {
        while (p->head) {
            struct chunk *c = p->head;
            p->head = c->next;
            free(c);
        }
        p->tail = NULL;
        pthread_cond_wait(&p->ready, &p->lock);
    }
    while (p->head) {
        struct chunk *c = p->head;
        p->head = c->next;
        free(c);
    }
    pthread_mutex_unlock(&p->lock);
    leave(p);
    return NULL;
}

static void start(struct pipe *p) {
    pthread_t t;
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&a, 256 * 1024);
    pthread_create(&t, &a, reader, p);
    pthread_create(&t, &a, writer, p);
    pthread_attr_destroy(&a);
}

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: %s LISTEN_ADDR LISTEN_PORT TARGET_ADDR TARGET_PORT DELAY_US\n", argv[0]);
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    delay_us = atol(argv[5]);
    struct sockaddr_in listen_at = {.sin_family = AF_INET, .sin_port = htons(atoi(argv[2]))};
    target = (struct sockaddr_in){.sin_family = AF_INET, .sin_port = htons(atoi(argv[4]))};
    if (inet_pton(AF_INET, argv[1], &listen_at.sin_addr) != 1 || inet_pton(AF_INET, argv[3], &target.sin_addr) != 1) {
        fprintf(stderr, "bad address\n");
        return 2;
    }
    int one = 1;
    int ls = socket(AF_INET, SOCK_STREAM, 0);
    setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(ls, (struct sockaddr *) &listen_at, sizeof listen_at) != 0 || listen(ls, 1024) != 0) {
        perror("listen");
        return 1;
    }
    for (;;) {
        int c = accept(ls, NULL, NULL);
        if (c < 0) continue;
        int s = socket(AF_INET, SOCK_STREAM, 0);
        if (connect(s, (struct sockaddr *) &target, sizeof target) != 0) {
            close(c);
            close(s);
            continue;
        }
        setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        struct pipe *pair = calloc(2, sizeof *pair);
        int *refs = malloc(sizeof *refs);
        *refs = 4;
        pair[0] = (struct pipe){.from = c, .to = s, .extra_first_us = 2 * delay_us, .other = &pair[1], .refs = refs};
        pair[1] = (struct pipe){.from = s, .to = c, .other = &pair[0], .refs = refs};
        for (int i = 0; i < 2; i++) {
            pthread_mutex_init(&pair[i].lock, NULL);
            pthread_cond_init(&pair[i].ready, NULL);
        }
        start(&pair[0]);
        start(&pair[1]);
    }
}
