/* connect-wait PORT: returns once something accepts a TCP connection on 127.0.0.1:PORT, trying
 * every 2 ms for at most 30 s (exit 1 then). For bench/fresh-start.sh: one process that starts
 * in a millisecond and forks nothing while the pooler it waits for is starting. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc != 2)
        return 2;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(atoi(argv[1]))};
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    struct timespec pause = {0, 2000000};
    for (int i = 0; i < 15000; i++) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        int ok = connect(fd, (struct sockaddr *)&a, sizeof a) == 0;
        close(fd);
        if (ok)
            return 0;
        nanosleep(&pause, NULL);
    }
    return 1;
}
