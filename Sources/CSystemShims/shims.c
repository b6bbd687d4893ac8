#define _GNU_SOURCE
#include "CSystemShims.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <string.h>
#include <sys/socket.h>
#include <signal.h>
#include <sys/wait.h>
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

void csystem_single_malloc_arena(void) {
#if defined(__GLIBC__)
    mallopt(M_ARENA_MAX, 1);
#endif
}

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>

int csystem_set_window_size(int fd, int columns, int rows) {
    struct winsize size;
    memset(&size, 0, sizeof size);
    size.ws_col = (unsigned short)columns;
    size.ws_row = (unsigned short)rows;
    return ioctl(fd, TIOCSWINSZ, &size);
}

int csystem_open_pseudo_terminal(int columns, int rows, char *name, unsigned long size) {
#if defined(__linux__)
    // Close-on-exec from the start: a program launched by another thread meanwhile must not inherit the master.
    int fd = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return -1;
#else
    int fd = posix_openpt(O_RDWR | O_NOCTTY);
    if (fd < 0) return -1;
    fcntl(fd, F_SETFD, FD_CLOEXEC);
#endif
    if (grantpt(fd) != 0 || unlockpt(fd) != 0) goto fail;
#if defined(__linux__)
    if (ptsname_r(fd, name, size) != 0) goto fail;
#else
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; // ptsname's buffer is shared
    pthread_mutex_lock(&lock);
    const char *path = ptsname(fd);
    if (path == NULL || strlen(path) >= size) {
        pthread_mutex_unlock(&lock);
        goto fail;
    }
    strcpy(name, path);
    pthread_mutex_unlock(&lock);
#endif
    if (csystem_set_window_size(fd, columns, rows) != 0) goto fail;
    return fd;
fail:;
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
}

int csystem_spawn_setsid_flag(void) {
#if defined(POSIX_SPAWN_SETSID)
    return POSIX_SPAWN_SETSID;
#else
    return 0;
#endif
}

#if defined(__linux__)
#include <sys/syscall.h>
#endif

int csystem_pidfd_open(int pid) {
#if defined(__linux__) && defined(SYS_pidfd_open)
    return (int)syscall(SYS_pidfd_open, pid, 0);
#elif defined(__linux__)
    return (int)syscall(434, pid, 0); // pidfd_open's number on every architecture since 5.3
#else
    (void)pid;
    errno = ENOSYS;
    return -1;
#endif
}

int csystem_pidfd_peek_exit(int pidfd) {
#if defined(__linux__)
    siginfo_t info;
    memset(&info, 0, sizeof info);
    int result;
    do {
        result = waitid((idtype_t)3 /* P_PIDFD */, (id_t)pidfd, &info, WEXITED | WNOWAIT);
    } while (result < 0 && errno == EINTR);
    if (result < 0) return -1;
    switch (info.si_code) {
    case CLD_EXITED: return (info.si_status & 0xff) << 8;
    case CLD_DUMPED: return (info.si_status & 0x7f) | 0x80;
    default: return info.si_status & 0x7f;
    }
#else
    (void)pidfd;
    errno = ENOSYS;
    return -1;
#endif
}


#include <sched.h>

int csystem_thread_attr_prefer_other_cpu(void *attributes) {
#if defined(__linux__)
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 0;
    int current = sched_getcpu();
    if (current < 0 || current >= CPU_SETSIZE || !CPU_ISSET(current, &set) || CPU_COUNT(&set) < 2) return 0;
    CPU_CLR(current, &set);
    return pthread_attr_setaffinity_np((pthread_attr_t *)attributes, sizeof set, &set) == 0;
#else
    (void)attributes;
    return 0;
#endif
}

void csystem_thread_allow_cpus_of_main(void) {
#if defined(__linux__)
    cpu_set_t set;
    if (sched_getaffinity(getpid(), sizeof set, &set) == 0) sched_setaffinity(0, sizeof set, &set);
#endif
}

int csystem_atomic_load(const int *value) { return __atomic_load_n(value, __ATOMIC_ACQUIRE); }

void csystem_atomic_store(int *value, int newValue) { __atomic_store_n(value, newValue, __ATOMIC_RELEASE); }

void csystem_atomic_store_word(unsigned long *value, unsigned long newValue) { __atomic_store_n(value, newValue, __ATOMIC_RELEASE); }

long csystem_memmem(const void *haystack, unsigned long haystackLength, const void *needle, unsigned long needleLength) {
    const void *found = memmem(haystack, haystackLength, needle, needleLength);
    return found ? (long)((const char *)found - (const char *)haystack) : -1;
}


#if defined(__linux__)
#include <sys/auxv.h>
int csystem_is_static_executable(void) { return getauxval(AT_BASE) == 0; }
#else
int csystem_is_static_executable(void) { return 0; }
#endif
