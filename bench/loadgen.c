/* An open-loop (or closed-loop) HTTP/1.1 load generator for the benchmarks (bench/loadgen.py).
 *
 * Why C: the load generator shares the machine's two cores with the servers it measures. The
 * asyncio generator (bench/open_loop.py) cost about 360 us of CPU per request on a 2-core
 * machine, a fifth of a core at 600 requests/s taken from the servers; an epoll loop costs a
 * quarter of that (91-111 us), so what is measured is the server, not the client.
 *
 * Input (a file): "N\n", then N requests, each "LENGTH\n" followed by LENGTH bytes (a whole
 * request, head and body). Request i goes out as the (i mod N)-th. In mode "tables" each length
 * is followed by a space and the request's lane (0, 1, ...): "LENGTH LANE\n".
 *
 * Open loop (mode "open"): request i is scheduled at start + i / rate and sent at that time on a
 * free keep-alive connection, or on a new one while fewer than CONNECTIONS are open; when none
 * is free it waits, first come first served. Its latency counts from its scheduled time, so a
 * server that falls behind is charged for the queue it builds (no coordinated omission).
 *
 * Tables (mode "tables"): open loop as above, but each request names its lane (a game, as a
 * phone at a table reports only its own game) and every lane has one keep-alive connection of
 * its own: a request whose lane's connection is busy waits for it (its latency still counts
 * from its scheduled time), and a lane's requests never overlap. CONNECTIONS is not used. With
 * several workers each game then stays on the worker its connection went to.
 *
 * Closed loop (mode "closed"): CONNECTIONS connections, each sending its next request as soon as
 * it has the answer to the last, for SECONDS; connection c sends requests c, c+C, c+2C, ...
 * Latency counts from the send.
 *
 * Output (stdout): "sent S", "answered A", "errors E", "seconds W", "cpu C" (user + system of
 * this process), then "latencies" and one line per answered request: its status and latency in
 * microseconds. Every answer is listed; the caller decides which statuses count as success.
 *
 *     loadgen open|tables|closed PORT RATE SECONDS CONNECTIONS REQUEST_FILE
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define BUFFER 65536
#define DRAIN_SECONDS 10.0 /* answers still awaited after the last send, at most */

typedef struct {
    char *bytes;
    size_t length;
    long lane; /* mode "tables": the connection it must go on; -1 otherwise */
} Request;

typedef struct Conn {
    int fd;
    int busy;         /* a request is in flight */
    int connected;    /* the non-blocking connect finished */
    int writing;      /* EPOLLOUT is watched: part of the request waits to be written */
    long index;       /* the request in flight */
    double scheduled; /* when its latency starts */
    size_t sent;      /* bytes of it written so far */
    char in[BUFFER];
    size_t have;
    long next_closed; /* closed loop: this connection's next request */
    long lane;        /* mode "tables": the lane it carries */
    struct Conn *next_idle;
} Conn;

static Request *requests;
static long request_count;
static int port;
static int epoll_fd;
static Conn *idle;
static int open_count;
static long answered, errors;
static int *statuses;
static double *latencies;
static long capacity;
static long lane_count;
static Conn **lane_conn;     /* mode "tables": each lane's connection, or NULL */
static long *lane_head;      /* its first waiting request, or -1 */
static long *lane_tail;      /* its last waiting request */
static long *queued_after;   /* the request waiting after this one on its lane, or -1 */

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void die(const char *what) {
    perror(what);
    exit(2);
}

static void load(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) die(path);
    if (fscanf(f, "%ld\n", &request_count) != 1 || request_count <= 0) {
        fprintf(stderr, "%s: no request count\n", path);
        exit(2);
    }
    requests = calloc((size_t)request_count, sizeof(Request));
    for (long i = 0; i < request_count; i++) {
        size_t length;
        long lane = -1;
        int after = 0;
        if (fscanf(f, "%zu", &length) != 1 || ((after = fgetc(f)) == ' ' && (fscanf(f, "%ld", &lane) != 1 || lane < 0)) ||
            (after != '\n' && fgetc(f) != '\n')) {
            fprintf(stderr, "%s: request %ld has no length (or a bad lane)\n", path, i);
            exit(2);
        }
        requests[i].lane = lane;
        if (lane >= lane_count) lane_count = lane + 1;
        requests[i].bytes = malloc(length);
        requests[i].length = length;
        if (fread(requests[i].bytes, 1, length, f) != length) {
            fprintf(stderr, "%s: request %ld is short\n", path, i);
            exit(2);
        }
    }
    fclose(f);
}

static void record(int status, double latency) {
    if (answered == capacity) {
        capacity = capacity ? capacity * 2 : 65536;
        statuses = realloc(statuses, (size_t)capacity * sizeof(int));
        latencies = realloc(latencies, (size_t)capacity * sizeof(double));
    }
    statuses[answered] = status;
    latencies[answered] = latency;
    answered++;
}

static Conn *connect_one(void) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (fd < 0) die("socket");
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&to, sizeof to) < 0 && errno != EINPROGRESS) {
        close(fd);
        return NULL;
    }
    Conn *c = calloc(1, sizeof(Conn));
    c->fd = fd;
    struct epoll_event ev = {.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP, .data.ptr = c};
    if (epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &ev) < 0) die("epoll_ctl");
    open_count++;
    return c;
}

static void drop(Conn *c) {
    epoll_ctl(epoll_fd, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    open_count--;
    free(c);
}

static void watch(Conn *c, int writable) {
    struct epoll_event ev = {.events = EPOLLIN | EPOLLRDHUP | (writable ? EPOLLOUT : 0), .data.ptr = c};
    epoll_ctl(epoll_fd, EPOLL_CTL_MOD, c->fd, &ev);
}

/* Write what is left of the request in flight; 0 when the connection broke. */
static int push(Conn *c) {
    if (!c->connected) return 1; /* EPOLLOUT will tell when the connect is done */
    Request *r = &requests[c->index % request_count];
    while (c->sent < r->length) {
        ssize_t n = send(c->fd, r->bytes + c->sent, r->length - c->sent, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno != EAGAIN) return 0;
            watch(c, 1); /* the rest when the socket can take it */
            c->writing = 1;
            return 1;
        }
        c->sent += (size_t)n;
    }
    if (c->writing) {
        watch(c, 0);
        c->writing = 0;
    }
    return 1;
}

static int start(Conn *c, long index, double scheduled) {
    c->busy = 1;
    c->index = index;
    c->scheduled = scheduled;
    c->sent = 0;
    c->have = 0;
    return push(c);
}

/* Mode "tables": put request INDEX (scheduled at SCHEDULED) on its lane's connection, opening
 * one if the lane has none; 0 when that failed (the request is then an error). */
static int start_on_lane(long lane, long index, double scheduled) {
    Conn *c = lane_conn[lane];
    if (!c) {
        c = connect_one();
        if (!c) return 0;
        c->lane = lane;
        lane_conn[lane] = c;
    }
    if (!start(c, index, scheduled)) {
        lane_conn[lane] = NULL;
        drop(c);
        return 0;
    }
    return 1;
}

/* Mode "tables": the lane's connection is free (or gone): start its next waiting request. */
static void lane_next(long lane, double begin, double rate, long *inflight) {
    while (lane_head[lane] >= 0) {
        long index = lane_head[lane];
        lane_head[lane] = queued_after[index];
        if (start_on_lane(lane, index, begin + (double)index / rate)) {
            (*inflight)++;
            return;
        }
        errors++;
    }
}

/* A whole response in c->in: its status (and whether the server will close), else 0. */
static int parse(Conn *c, int *closing, size_t *used) {
    char *end = memmem(c->in, c->have, "\r\n\r\n", 4);
    if (!end) return 0;
    size_t head = (size_t)(end - c->in) + 4;
    int status = 0;
    if (c->have < 12 || sscanf(c->in, "HTTP/1.%*c %d", &status) != 1) return -1;
    size_t body = 0;
    *closing = 0;
    for (char *line = memchr(c->in, '\n', head); line && line < end; line = memchr(line + 1, '\n', (size_t)(end - line))) {
        char *field = line + 1;
        if (strncasecmp(field, "content-length:", 15) == 0) body = strtoul(field + 15, NULL, 10);
        if (strncasecmp(field, "connection:", 11) == 0) {
            char *stop = memchr(field, '\r', (size_t)(end - field) + 1);
            char *word = strcasestr(field + 11, "close");
            if (word && stop && word < stop) *closing = 1;
        }
    }
    if (c->have < head + body) return 0;
    *used = head + body;
    return status;
}

int main(int argc, char **argv) {
    if (argc != 7) {
        fprintf(stderr, "usage: %s open|tables|closed PORT RATE SECONDS CONNECTIONS REQUEST_FILE\n", argv[0]);
        return 2;
    }
    int closed = strcmp(argv[1], "closed") == 0;
    int tables = strcmp(argv[1], "tables") == 0;
    port = atoi(argv[2]);
    double rate = atof(argv[3]), seconds = atof(argv[4]);
    int limit = atoi(argv[5]);
    load(argv[6]);
    long count = closed ? 0 : (long)(rate * seconds);
    if (count < 1) count = 1;
    if (tables) {
        for (long i = 0; i < request_count; i++)
            if (requests[i].lane < 0) {
                fprintf(stderr, "mode tables: request %ld names no lane\n", i);
                return 2;
            }
        lane_conn = calloc((size_t)lane_count, sizeof(Conn *));
        lane_head = malloc((size_t)lane_count * sizeof(long));
        lane_tail = malloc((size_t)lane_count * sizeof(long));
        queued_after = malloc((size_t)count * sizeof(long));
        for (long l = 0; l < lane_count; l++) lane_head[l] = -1;
    }

    epoll_fd = epoll_create1(0);
    int timer = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
    struct epoll_event tev = {.events = EPOLLIN, .data.ptr = NULL};
    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, timer, &tev);

    double begin = now() + 0.01, deadline = begin + seconds;
    long due = 0;      /* open loop: requests whose time has come */
    long waiting = 0;  /* open loop: the first of them not yet on a connection */
    long inflight = 0, sent = 0;
    struct epoll_event events[256];

    if (closed) {
        for (int i = 0; i < limit; i++) {
            Conn *c = connect_one();
            if (!c) die("connect");
            c->next_closed = i;
            start(c, c->next_closed, now());
            c->next_closed += limit;
            inflight++;
            sent++;
        }
    }

    for (;;) {
        double t = now();
        if (!closed) {
            while (due < count && begin + (double)due / rate <= t) due++;
            /* Tables: each due request to its lane's connection, or behind the lane's last. */
            while (tables && waiting < due) {
                long lane = requests[waiting % request_count].lane;
                Conn *c = lane_conn[lane];
                if (c && c->busy) {
                    queued_after[waiting] = -1;
                    if (lane_head[lane] < 0) lane_head[lane] = waiting;
                    else queued_after[lane_tail[lane]] = waiting;
                    lane_tail[lane] = waiting;
                } else if (start_on_lane(lane, waiting, begin + (double)waiting / rate)) {
                    inflight++;
                } else {
                    errors++;
                }
                waiting++;
                sent++;
            }
            /* Hand the due requests to free connections (or new ones), oldest first. */
            while (waiting < due) {
                Conn *c = idle;
                if (c) {
                    idle = c->next_idle;
                } else if (open_count < limit) {
                    c = connect_one();
                    if (!c) { errors++; waiting++; continue; }
                } else {
                    break;
                }
                if (!start(c, waiting, begin + (double)waiting / rate)) {
                    errors++;
                    drop(c);
                } else {
                    inflight++;
                }
                waiting++;
                sent++;
            }
            if (waiting == count && inflight == 0) break;
            if (due == count && t > begin + (double)count / rate + DRAIN_SECONDS) break;
            if (due < count) {
                double at = begin + (double)due / rate;
                struct itimerspec when = {0};
                when.it_value.tv_sec = (time_t)at;
                when.it_value.tv_nsec = (long)((at - (double)(time_t)at) * 1e9);
                timerfd_settime(timer, TFD_TIMER_ABSTIME, &when, NULL);
            }
        } else {
            if (inflight == 0) break;
            if (t > deadline + DRAIN_SECONDS) break;
        }

        int n = epoll_wait(epoll_fd, events, 256, 100);
        if (n < 0 && errno != EINTR) die("epoll_wait");
        for (int k = 0; k < n; k++) {
            Conn *c = events[k].data.ptr;
            if (!c) {
                uint64_t expirations;
                if (read(timer, &expirations, sizeof expirations) < 0 && errno != EAGAIN) die("timerfd");
                continue;
            }
            if (events[k].events & EPOLLOUT && !c->connected) {
                int error = 0;
                socklen_t size = sizeof error;
                getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &error, &size);
                watch(c, 0);
                if (error) {
                    if (c->busy) { errors++; inflight--; }
                    long lane = c->lane;
                    drop(c);
                    if (tables) {
                        lane_conn[lane] = NULL;
                        lane_next(lane, begin, rate, &inflight);
                    }
                    continue;
                }
                c->connected = 1;
            }
            int broke = 0;
            if (c->busy && !push(c)) broke = 1;
            if (!broke && events[k].events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) {
                for (;;) {
                    ssize_t got = recv(c->fd, c->in + c->have, BUFFER - c->have, 0);
                    if (got > 0) { c->have += (size_t)got; if (c->have == BUFFER) { broke = 1; break; } continue; }
                    if (got == 0 || errno != EAGAIN) broke = 1;
                    break;
                }
            }
            int closing = 0;
            size_t used = 0;
            int status = c->busy ? parse(c, &closing, &used) : 0;
            if (status > 0) {
                double done = now();
                record(status, done - c->scheduled);
                c->busy = 0;
                inflight--;
                if (tables) {
                    long lane = c->lane;
                    if (closing || broke) {
                        lane_conn[lane] = NULL;
                        drop(c);
                    }
                    lane_next(lane, begin, rate, &inflight);
                } else if (closing || broke) {
                    drop(c);
                } else if (closed) {
                    if (done < deadline) {
                        start(c, c->next_closed, done);
                        c->next_closed += limit;
                        inflight++;
                        sent++;
                    } else {
                        drop(c);
                    }
                } else {
                    c->next_idle = idle;
                    idle = c;
                }
            } else if (status < 0 || broke) {
                if (c->busy) { errors++; inflight--; }
                if (tables) {
                    long lane = c->lane;
                    lane_conn[lane] = NULL;
                    drop(c);
                    lane_next(lane, begin, rate, &inflight);
                    continue;
                }
                /* An idle connection the server closed: gone from the free list too. */
                for (Conn **p = &idle; *p; p = &(*p)->next_idle)
                    if (*p == c) { *p = c->next_idle; break; }
                drop(c);
            }
        }
    }
    double elapsed = now() - begin;
    if (!closed && elapsed < seconds) elapsed = seconds;
    errors += inflight; /* never answered */
    for (long l = 0; tables && l < lane_count; l++)
        for (long i = lane_head[l]; i >= 0; i = queued_after[i]) errors++; /* never sent */
    struct rusage use;
    getrusage(RUSAGE_SELF, &use);
    double cpu = (double)use.ru_utime.tv_sec + (double)use.ru_utime.tv_usec / 1e6 + (double)use.ru_stime.tv_sec +
                 (double)use.ru_stime.tv_usec / 1e6;
    printf("sent %ld\nanswered %ld\nerrors %ld\nseconds %.6f\ncpu %.6f\nlatencies\n", sent, answered, errors, elapsed,
           cpu);
    for (long i = 0; i < answered; i++) printf("%d %.1f\n", statuses[i], latencies[i] * 1e6);
    return 0;
}
