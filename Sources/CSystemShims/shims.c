#define _GNU_SOURCE
#include "CSystemShims.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <string.h>
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


#include <stdatomic.h>

// MARK: The reaper (see CSystemShims.h)
//
// The reaper shares this process's memory but not its descriptors, signal handlers or thread-local storage:
// it runs on a stack of its own with the TLS pointer of the thread that cloned it. So it must not touch
// errno or anything else of the C library's per-thread state: it makes its system calls itself (raw_syscall,
// which returns -errno) and calls no libc function after the clone.
#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <signal.h>
#include <time.h>

#define REAPER_SLOTS 4096
#define REAPER_STACK (64 * 1024)

static _Atomic int reaper_slots[REAPER_SLOTS]; // registered process groups; 0 is a free slot
static _Atomic int reaper_state;               // 0: not started, 1: running, -1: could not start
static pthread_mutex_t reaper_start_lock = PTHREAD_MUTEX_INITIALIZER;
static int reaper_read_end = -1;

static long raw_syscall4(long number, long a, long b, long c, long d) {
#if defined(__x86_64__)
    long result;
    register long r10 __asm__("r10") = d;
    __asm__ volatile("syscall" : "=a"(result) : "a"(number), "D"(a), "S"(b), "d"(c), "r"(r10) : "rcx", "r11", "memory");
    return result;
#else
    register long x8 __asm__("x8") = number;
    register long x0 __asm__("x0") = a;
    register long x1 __asm__("x1") = b;
    register long x2 __asm__("x2") = c;
    register long x3 __asm__("x3") = d;
    __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3) : "memory");
    return x0;
#endif
}

static long raw_syscall(long number, long a, long b, long c) { return raw_syscall4(number, a, b, c, 0); }

static _Atomic int reaper_fired; // the reaper woke up: a child that registers from now on must not run

static int reaper_register(int pgid) {
    for (int index = 0; index < REAPER_SLOTS; index++) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&reaper_slots[index], &expected, pgid)) return 1;
    }
    return 0;
}

static void reaper_signal_all(int signal) {
    for (int index = 0; index < REAPER_SLOTS; index++) {
        int group = atomic_load(&reaper_slots[index]);
        if (group > 0) raw_syscall(SYS_kill, -group, signal, 0);
    }
}

static int reaper_main(void *unused) {
    (void)unused;
    int fd = reaper_read_end;
    // Signals are blocked already (the cloning thread blocked them all around the clone).
    raw_syscall(SYS_setpgid, 0, 0, 0); // out of the caller's group: a CI runner's kill of that group spares it
    raw_syscall(SYS_chdir, (long)"/", 0, 0);
    raw_syscall(SYS_prctl, PR_SET_NAME, (long)"sut-reaper", 0);
    // Hold nothing of the caller's: its stdout (a reader would wait for us), sockets, the pipe's write end.
    if (fd > 0 && raw_syscall(SYS_close_range, 0, (long)(unsigned)(fd - 1), 0) != 0) {
        for (int other = 0; other < fd; other++) raw_syscall(SYS_close, other, 0, 0);
    }
    if (raw_syscall(SYS_close_range, fd + 1, (long)~0U, 0) != 0) {
        for (int other = fd + 1; other < 65536; other++) raw_syscall(SYS_close, other, 0, 0);
    }
    char byte;
    for (;;) {
        long count = raw_syscall(SYS_read, fd, (long)&byte, 1);
        if (count == 0) break;               // the caller is gone
        if (count < 0 && count != -EINTR) return 0; // cannot watch: leave the programs alone rather than guess
    }
    // Every child registers itself before it execs and then reads this (both sequentially consistent): either
    // the scan below sees its group, or the child sees the flag and exits instead of running (csystem_spawn).
    atomic_store(&reaper_fired, 1);
    int any = 0;
    for (int index = 0; index < REAPER_SLOTS; index++) any |= atomic_load(&reaper_slots[index]) > 0;
    if (!any) return 0;
    reaper_signal_all(SIGTERM);
    struct timespec grace = {0, 500 * 1000 * 1000};
    while (raw_syscall(SYS_nanosleep, (long)&grace, (long)&grace, 0) == -EINTR) {}
    reaper_signal_all(SIGKILL);
    return 0;
}

static int reaper_spawn(void) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return 0;
    void *stack = mmap(NULL, REAPER_STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (stack == MAP_FAILED) {
        close(fds[0]);
        close(fds[1]);
        return 0;
    }
    reaper_read_end = fds[0];
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    // The stack is never unmapped: after this process ends the reaper still runs on it.
    int pid = clone(reaper_main, (char *)stack + REAPER_STACK, CLONE_VM | SIGCHLD, NULL);
    // Out of our group from here on, whenever the reaper itself gets to run: a busy machine may not schedule it
    // before a CI runner kills our group (it also calls setpgid; whichever comes first wins, as shells do).
    if (pid > 0) setpgid(pid, pid);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    close(fds[0]);
    if (pid < 0) {
        munmap(stack, REAPER_STACK);
        close(fds[1]);
        return 0;
    }
    return 1; // fds[1] stays open, close-on-exec, for as long as this process lives
}

int csystem_reaper_start(void) {
    int state = atomic_load(&reaper_state);
    if (state != 0) return state > 0;
    pthread_mutex_lock(&reaper_start_lock);
    if (atomic_load(&reaper_state) == 0) atomic_store(&reaper_state, reaper_spawn() ? 1 : -1);
    pthread_mutex_unlock(&reaper_start_lock);
    return atomic_load(&reaper_state) > 0;
}

int csystem_reaper_guard(int pgid) {
    if (pgid <= 0 || atomic_load(&reaper_state) <= 0) return 0;
    return reaper_register(pgid);
}

int csystem_reaper_release(int pgid) {
    if (pgid <= 0) return 0;
    for (int index = 0; index < REAPER_SLOTS; index++) {
        int expected = pgid;
        if (atomic_compare_exchange_strong(&reaper_slots[index], &expected, 0)) return 1;
    }
    return 0;
}
// MARK: Spawning (see CSystemShims.h)
//
// posix_spawn as glibc does it (clone with CLONE_VM | CLONE_VFORK: no page-table copy, the caller sleeps until
// the child execs or fails), with one step posix_spawn has no hook for: the child registers its own process
// group with the reaper before it execs. Registering after posix_spawn returned left a window (measured under
// CPU starvation: milliseconds) in which a SIGKILL of the launcher orphaned a program that was already running.
// The child shares the caller's memory and thread pointer, so like the reaper it makes raw system calls only.

#define SPAWN_STACK (32 * 1024)

struct spawn_arguments {
    const char *path;
    char *const *argv;
    char *const *envp;
    const char *directory;
    const int *descriptors;
    int count;
    const char *terminal;
    int guard;
    _Atomic int error;   // set by the child when it cannot exec (an errno value)
    _Atomic int guarded; // set by the child when its group is registered
};

static int spawn_keep(int fd, int target) {
    if (fd == target) return (int)raw_syscall(SYS_fcntl, fd, F_SETFD, 0); // clears close-on-exec, as dup2 onto itself
    return (int)raw_syscall(SYS_dup3, fd, target, 0);
}

static int spawn_child(void *context) {
    struct spawn_arguments *arguments = context;
    long result;
    if (arguments->terminal) result = raw_syscall(SYS_setsid, 0, 0, 0); // a session leader leads a new group too
    else result = raw_syscall(SYS_setpgid, 0, 0, 0);
    if (result < 0) goto failed;
    if (arguments->guard) {
        int self = (int)raw_syscall(SYS_getpid, 0, 0, 0);
        if (reaper_register(self)) {
            atomic_store(&arguments->guarded, 1);
            if (atomic_load(&reaper_fired)) { result = -ECANCELED; goto failed; } // the launcher is dying
        }
    }
    // Default dispositions for every signal, then an empty mask (the caller blocked them all around the clone).
    // The kernel's struct sigaction for SIG_DFL with no flags and no mask is all zeros on both architectures.
    long none[4] = {0, 0, 0, 0};
    for (int signal = 1; signal < 65; signal++) {
        if (signal == SIGKILL || signal == SIGSTOP) continue;
        raw_syscall4(SYS_rt_sigaction, signal, (long)none, 0, 8);
    }
    if (arguments->terminal) {
        long fd = raw_syscall4(SYS_openat, AT_FDCWD, (long)arguments->terminal, O_RDWR, 0); // the controlling terminal
        if (fd < 0) { result = fd; goto failed; }
        for (int target = 0; target < 3; target++) {
            if ((result = spawn_keep((int)fd, target)) < 0) goto failed;
        }
        if (fd > 2) raw_syscall(SYS_close, fd, 0, 0);
    } else {
        for (int target = 0; target < arguments->count; target++) {
            if ((result = spawn_keep(arguments->descriptors[target], target)) < 0) goto failed;
        }
    }
    if (arguments->directory && (result = raw_syscall(SYS_chdir, (long)arguments->directory, 0, 0)) < 0) goto failed;
    // Exactly 0, 1, 2 (and what was asked for) reach the program: nothing the caller left inheritable.
    int first = arguments->terminal ? 3 : (arguments->count > 3 ? arguments->count : 3);
    if (raw_syscall(SYS_close_range, first, (long)~0U, 0) != 0) {
        for (int other = first; other < 65536; other++) raw_syscall(SYS_close, other, 0, 0);
    }
    raw_syscall4(SYS_rt_sigprocmask, SIG_SETMASK, (long)none, 0, 8);
    result = raw_syscall(SYS_execve, (long)arguments->path, (long)arguments->argv, (long)arguments->envp);
failed:
    atomic_store(&arguments->error, (int)-result);
    raw_syscall(SYS_exit_group, 127, 0, 0);
    return 127;
}

int csystem_spawn(const char *path, char *const *argv, char *const *envp, const char *directory,
                  const int *descriptors, int count, const char *terminal, int guard, int *pid, int *guarded) {
    struct spawn_arguments arguments = {path, argv, envp, directory, descriptors, count, terminal,
                                        guard && atomic_load(&reaper_state) > 0, 0, 0};
    void *stack = mmap(NULL, SPAWN_STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (stack == MAP_FAILED) return errno;
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old); // no handler of ours may run in the child
    int child = clone(spawn_child, (char *)stack + SPAWN_STACK, CLONE_VM | CLONE_VFORK | SIGCHLD, &arguments);
    int error = child < 0 ? errno : atomic_load(&arguments.error);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    munmap(stack, SPAWN_STACK);
    if (child > 0 && error != 0) {
        int status;
        while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
        if (atomic_load(&arguments.guarded)) csystem_reaper_release(child);
        return error;
    }
    if (error != 0) return error;
    *pid = child;
    *guarded = atomic_load(&arguments.guarded);
    return 0;
}
#else
int csystem_spawn(const char *path, char *const *argv, char *const *envp, const char *directory,
                  const int *descriptors, int count, const char *terminal, int guard, int *pid, int *guarded) {
    (void)path, (void)argv, (void)envp, (void)directory, (void)descriptors, (void)count, (void)terminal;
    (void)guard, (void)pid, (void)guarded;
    return ENOSYS; // the launcher uses posix_spawn
}
int csystem_reaper_start(void) { return 0; }
int csystem_reaper_guard(int pgid) { (void)pgid; return 0; }
int csystem_reaper_release(int pgid) { (void)pgid; return 0; }
#endif

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

long csystem_memmem(const void *haystack, unsigned long haystackLength, const void *needle, unsigned long needleLength) {
    const void *found = memmem(haystack, haystackLength, needle, needleLength);
    return found ? (long)((const char *)found - (const char *)haystack) : -1;
}

