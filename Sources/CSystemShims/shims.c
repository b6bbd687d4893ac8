#define _GNU_SOURCE
#include "CSystemShims.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/socket.h>
#include <unistd.h>

_Static_assert(sizeof(socklen_t) == sizeof(unsigned int), "socklen_t is 32 bits");

int csystem_accept_cloexec(int fd, void *address, unsigned int *length) {
#if defined(__linux__)
    return accept4(fd, (struct sockaddr *)address, (socklen_t *)length, SOCK_CLOEXEC);
#else
    // No accept4 (macOS): the window before fcntl is covered by POSIX_SPAWN_CLOEXEC_DEFAULT in the launcher.
    int client = accept(fd, (struct sockaddr *)address, (socklen_t *)length);
    if (client >= 0) fcntl(client, F_SETFD, FD_CLOEXEC);
    return client;
#endif
}

int csystem_pipe_cloexec(int fds[2]) {
#if defined(__linux__)
    return pipe2(fds, O_CLOEXEC);
#else
    if (pipe(fds) != 0) return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return 0;
#endif
}

int csystem_spawn_file_actions_addchdir(void *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np((posix_spawn_file_actions_t *)actions, path);
}

int csystem_spawn_file_actions_addclosefrom(void *actions, int from) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    return posix_spawn_file_actions_addclosefrom_np((posix_spawn_file_actions_t *)actions, from);
#else
    (void)actions;
    (void)from;
    return 38; // ENOSYS on Linux: the launcher falls back to closing descriptors it knows of
#endif
}

#if defined(__GLIBC__)
#include <malloc.h>
#endif

void csystem_bound_malloc_caching(void) {
#if defined(__GLIBC__)
    // Buffers of 1 MiB and more are mapped and unmapped, never kept in an arena: glibc otherwise raises its
    // mmap threshold after the first large free, and each thread's arena then keeps request bodies it freed
    // (measured: 210 MB peak for two clients posting 4 MiB bodies in a loop). Fewer arenas likewise.
    mallopt(M_MMAP_THRESHOLD, 1024 * 1024);
    mallopt(M_ARENA_MAX, 4);
#endif
}

#include <signal.h>
#include <errno.h>
#include <time.h>
#if defined(__linux__)
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif

// The watchdog's loop, in the forked child: async-signal-safe calls only (read, kill, nanosleep, _exit),
// no allocation, so forking a multi-threaded process is safe.
static void watchdog_child(int input) {
    enum { capacity = 4096 };
    static int groups[capacity];
    int count = 0;
    char line[64];
    int length = 0;
    char buffer[512];
    for (;;) {
        ssize_t got = read(input, buffer, sizeof buffer);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        for (ssize_t i = 0; i < got; i++) {
            char c = buffer[i];
            if (c != '\n') {
                if (length < (int)sizeof line - 1) line[length++] = c;
                continue;
            }
            line[length] = 0;
            long value = 0;
            for (int j = 1; j < length && line[j] >= '0' && line[j] <= '9'; j++) value = value * 10 + (line[j] - '0');
            if (length > 1 && line[0] == '+' && value > 1 && count < capacity) {
                groups[count++] = (int)value;
            } else if (length > 1 && line[0] == '-') {
                for (int j = 0; j < count; j++) {
                    if (groups[j] == (int)value) { groups[j] = groups[--count]; break; }
                }
            }
            length = 0;
        }
    }
    if (count == 0) _exit(0);
    for (int j = 0; j < count; j++) kill(-groups[j], SIGTERM);
    struct timespec grace = { 0, 500 * 1000 * 1000 };
    while (nanosleep(&grace, &grace) != 0 && errno == EINTR) {}
    for (int j = 0; j < count; j++) kill(-groups[j], SIGKILL);
    _exit(0);
}

int csystem_fork_watchdog(int input) {
    pid_t pid = fork();
    if (pid != 0) return pid; // the parent (or -1)
#if defined(__linux__)
    prctl(PR_SET_NAME, "sut-watchdog", 0, 0, 0); // what ps and top show
#endif
    // The child: its own process group, deaf to the signals a terminal or a CI runner sends to the job, and
    // holding no descriptor but its input (not the program's pipes, not the mock server's socket).
    setpgid(0, 0);
    struct sigaction ignore;
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    ignore.sa_flags = 0;
    int deaf[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU };
    for (unsigned i = 0; i < sizeof deaf / sizeof deaf[0]; i++) sigaction(deaf[i], &ignore, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (input != 0) { dup2(input, 0); }
#if defined(__linux__) && defined(SYS_close_range)
    if (syscall(SYS_close_range, 1U, ~0U, 0U) != 0)
#endif
    {
        long limit = sysconf(_SC_OPEN_MAX);
        if (limit < 0 || limit > 65536) limit = 65536;
        for (int fd = 1; fd < limit; fd++) close(fd);
    }
    watchdog_child(0);
    _exit(0);
}
