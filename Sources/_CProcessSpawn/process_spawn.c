// The spawn and the reaper (see _CProcessSpawn.h). Linux only: macOS uses posix_spawn and a shell reaper.
//
// INVARIANTS. Two kinds of process start here with clone(CLONE_VM): they share this process's memory, live,
// without being threads glibc knows of. The spawn child runs from clone to execve (CLONE_VFORK: the thread
// that spawns sleeps meanwhile); the reaper runs from its start until after this process is gone. Code either
// of them runs keeps to these rules; change one only with its reason.
//
// 1. Memory. Both read this process's memory as it is (no copy). The spawn child writes only its
//    `struct spawn_arguments` (error, guarded) and one reaper slot; the reaper writes only `reaper_fired` and its
//    own stack. What the child reads (path, argv, envp, descriptors) stays alive because its spawner sleeps until
//    execve succeeds or the child exits. Slots and flags are C11 atomics, sequentially consistent: a child
//    registers its group and then reads `reaper_fired`; the reaper sets `reaper_fired` and then scans the slots;
//    so either the scan sees the group or the child sees the flag and exits without running the program.
// 2. Calls. No malloc, no lock, no stdio: a lock another thread held at the clone is never released in the
//    child, and an allocation would share a heap with threads that do not know the child exists. Only system-call
//    wrappers that are async-signal-safe: the spawn child setsid, setpgid, getpid, sigprocmask, open, dup2,
//    fcntl, chdir, close, execve, _exit and syscall(2) (rt_sigaction, close_range), and it reads one atomic word
//    (process_signal_kept_ignored); the reaper syscall(2) until
//    end of file, then kill and clock_nanosleep. No inline assembly: libc makes every call.
// 3. errno and thread-local storage. A CLONE_VM child made without CLONE_SETTLS keeps the thread pointer of the
//    thread that cloned it, so the per-thread state glibc's wrappers use (errno on failure; the cancellation word
//    in cancellable calls; the stack-protector canary) is that thread's:
//    - the spawn child uses its spawner's, which sleeps (CLONE_VFORK) until the child has exec'd or exited; the
//      spawner saves errno before the clone and restores it after. glibc's posix_spawn child does the same (its
//      spawni.c child stores errno and reads it back).
//    - the reaper is cloned by a thread started only for that, on a stack this file maps and never unmaps
//      (pthread_attr_setstack). glibc keeps a thread's descriptor and static TLS (errno among it) inside a stack
//      the caller supplies, and never frees or reuses such a stack; that thread exits right after the clone and is
//      joined. So the reaper's errno and cancellation word are its own: nobody else reads them, and they stay
//      mapped after every thread of this process has exited (a thread's own stack may be unmapped or handed to
//      a new thread once it exits: that is why the reaper is not cloned by the caller's thread). Until end of
//      file the reaper calls syscall(2) only (no cancellation bookkeeping), none of which fails on Linux >= 5.9,
//      so it writes nothing there while the starter thread may still be exiting.
//    glibc's clone() touches no TLS in the child: it calls the function, then SYS_exit with its result
//    (sysdeps/unix/sysv/linux/*/clone.S; the cached pid it used to reset went in glibc 2.25).
// 4. Signals. Handlers are copied at the clone (no CLONE_SIGHAND) and would run on shared memory with a borrowed
//    thread pointer. So every signal is blocked across each clone: the spawner blocks all (with the raw mask call:
//    pthread_sigmask leaves glibc's two internal signals open), the child resets every disposition to SIG_DFL
//    (ignored ones would survive execve; those the caller left ignored and sut-launch keeps so, to SIG_IGN) and
//    only then empties its mask; the reaper's starter thread starts with
//    all blocked and the reaper blocks them all for good (it ends on end of file, never on a signal).
// 5. Descriptors. Neither shares the descriptor table (no CLONE_FILES): each has a copy made at the clone. The
//    spawn child puts the asked-for ones on 0-2 (or opens the terminal there) and closes every other one before
//    execve. The reaper closes all but the read end of its pipe before it waits, so it holds none of our output
//    pipes, sockets or terminal (a reader of our stdout would otherwise wait for it). The write end lives only
//    in this process, close-on-exec: end of file means every thread of this process has exited (or it exec'd).
// 6. Stacks. The spawn child's (32 KiB) is unmapped once the spawner wakes. The reaper's and its starter's
//    (one mapping) are never unmapped: the reaper runs on them after this process is gone.
#define _GNU_SOURCE
#include "_CProcessSpawn.h"

#if defined(__linux__)
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define REAPER_SLOTS 4096
#define REAPER_STACK (64 * 1024)
#define STARTER_STACK (128 * 1024) // holds the starter thread's descriptor and static TLS too (glibc puts them there)
#define SPAWN_STACK (32 * 1024)

// The kernel's signal set: 64 signals on every architecture this runs on (MIPS, with 128, is not one).
typedef unsigned long long kernel_sigset;

static _Atomic int reaper_slots[REAPER_SLOTS]; // registered process groups; 0 is a free slot
static _Atomic int reaper_state;               // 0: not started, 2: starting, 1: running, -1: could not start
static _Atomic int reaper_fired;               // the reaper woke up: a child that registers from now on must not run
static pthread_mutex_t reaper_start_lock = PTHREAD_MUTEX_INITIALIZER;
static int reaper_read_end = -1;
static int reaper_write_end = -1;
static char *reaper_stack_top;
static int reaper_pid;

/// Blocks every signal of the calling thread, glibc's internal ones included; the previous mask in `old`.
static void block_all_signals(kernel_sigset *old) {
    kernel_sigset all = ~0ULL;
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, &all, old, sizeof all);
}

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
        if (group > 0) kill(-group, signal); // ESRCH for a group that is gone: errno is the reaper's own
    }
}

/// Closes every descriptor from `first` to `last` (close_range, or one by one before Linux 5.9).
static void close_descriptors(int first, unsigned int last) {
    if (syscall(SYS_close_range, first, last, 0) == 0) return;
    for (long fd = first; fd <= (long)last && fd < 65536; fd++) syscall(SYS_close, fd);
}

// MARK: The reaper (rules 1-6 above)

static int reaper_main(void *unused) {
    (void)unused;
    int fd = reaper_read_end;
    block_all_signals(NULL);
    syscall(SYS_chdir, "/"); // hold no directory of ours busy
    syscall(SYS_prctl, PR_SET_NAME, "sut-reaper", 0, 0, 0);
    if (fd > 0) close_descriptors(0, (unsigned int)fd - 1);
    close_descriptors(fd + 1, ~0U);
    char byte;
    for (;;) {
        long count = syscall(SYS_read, fd, &byte, 1);
        if (count == 0) break; // every thread of the caller is gone
        if (count < 0) return 0; // cannot watch (no signal can interrupt it): leave the programs alone rather than guess
    }
    // From here on nobody else uses this memory.
    atomic_store(&reaper_fired, 1);
    int any = 0;
    for (int index = 0; index < REAPER_SLOTS; index++) any |= atomic_load(&reaper_slots[index]) > 0;
    if (!any) return 0;
    reaper_signal_all(SIGTERM);
    struct timespec grace = {0, 500 * 1000 * 1000};
    while (clock_nanosleep(CLOCK_MONOTONIC, 0, &grace, &grace) == EINTR) {}
    reaper_signal_all(SIGKILL);
    return 0;
}

/// The reaper's starter thread: its thread pointer (and so its errno) becomes the reaper's (rule 3).
static void *reaper_starter(void *unused) {
    (void)unused;
    reaper_pid = clone(reaper_main, reaper_stack_top, CLONE_VM | SIGCHLD, NULL);
    return NULL;
}

static char *reaper_memory;
static pthread_t reaper_starter_thread;

static void reaper_cleanup(void);

/// Starts the starter thread (which clones the reaper); 1, or 0 when it could not.
static int reaper_begin(void) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return 0;
    char *memory = mmap(NULL, REAPER_STACK + STARTER_STACK, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (memory == MAP_FAILED) {
        close(fds[0]);
        close(fds[1]);
        return 0;
    }
    reaper_memory = memory;
    reaper_read_end = fds[0];
    reaper_write_end = fds[1];
    reaper_stack_top = memory + REAPER_STACK;
    reaper_pid = -1;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setstack(&attributes, memory + REAPER_STACK, STARTER_STACK);
    kernel_sigset old;
    block_all_signals(&old); // the starter inherits this mask, the reaper the starter's
    int started = pthread_create(&reaper_starter_thread, &attributes, reaper_starter, NULL) == 0;
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, &old, NULL, sizeof old);
    pthread_attr_destroy(&attributes);
    if (!started) reaper_cleanup();
    return started;
}

/// Waits for the starter thread; 1 when the reaper runs (out of our process group), 0 when it could not start.
static int reaper_finish(void) {
    pthread_join(reaper_starter_thread, NULL);
    int pid = reaper_pid;
    // Out of our group before any program starts (a CI runner's kill of our group must spare it).
    if (pid <= 0) {
        reaper_cleanup(); // no reaper runs on the memory; the starter is joined
        return 0;
    }
    setpgid(pid, pid);
    close(reaper_read_end); // the reaper has its own copy
    return 1; // the write end stays open, close-on-exec, for as long as this process lives
}

static void reaper_cleanup(void) {
    close(reaper_read_end);
    close(reaper_write_end);
    munmap(reaper_memory, REAPER_STACK + STARTER_STACK);
}

void process_reaper_begin(void) {
    if (atomic_load(&reaper_state) != 0) return;
    pthread_mutex_lock(&reaper_start_lock);
    if (atomic_load(&reaper_state) == 0) {
        int saved = errno;
        atomic_store(&reaper_state, reaper_begin() ? 2 : -1);
        errno = saved;
    }
    pthread_mutex_unlock(&reaper_start_lock);
}

int process_reaper_start(void) {
    int state = atomic_load(&reaper_state);
    if (state == 1 || state == -1) return state > 0;
    process_reaper_begin();
    pthread_mutex_lock(&reaper_start_lock);
    if (atomic_load(&reaper_state) == 2) {
        int saved = errno;
        atomic_store(&reaper_state, reaper_finish() ? 1 : -1);
        errno = saved;
    }
    pthread_mutex_unlock(&reaper_start_lock);
    return atomic_load(&reaper_state) == 1;
}

int process_reaper_guard(int pgid) {
    if (pgid <= 0 || atomic_load(&reaper_state) != 1) return 0;
    return reaper_register(pgid);
}

int process_reaper_release(int pgid) {
    if (pgid <= 0) return 0;
    for (int index = 0; index < REAPER_SLOTS; index++) {
        int expected = pgid;
        if (atomic_compare_exchange_strong(&reaper_slots[index], &expected, 0)) return 1;
    }
    return 0;
}

// MARK: The spawn (rules 1-6 above)
//
// posix_spawn as glibc does it (clone with CLONE_VM | CLONE_VFORK: no page-table copy, the caller sleeps until
// the child execs or fails), with one step posix_spawn has no hook for: the child registers its own process
// group with the reaper before it execs. Registering after posix_spawn returned left a window (measured under
// CPU starvation: milliseconds) in which a SIGKILL of the launcher orphaned a program that was already running.

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

/// Makes `fd` the child's descriptor `target`, inheritable.
static int spawn_keep(int fd, int target) {
    if (fd == target) return fcntl(fd, F_SETFD, 0); // clears close-on-exec, as dup2 onto itself would
    return dup2(fd, target) < 0 ? -1 : 0;
}

static int spawn_child(void *context) {
    struct spawn_arguments *arguments = context;
    int error = 0;
    if (arguments->terminal ? setsid() < 0 : setpgid(0, 0) != 0) goto failed; // a session leader leads a group too
    if (arguments->guard && reaper_register(getpid())) {
        atomic_store(&arguments->guarded, 1);
        if (atomic_load(&reaper_fired)) { error = ECANCELED; goto failed; } // the launcher is dying
    }
    // Default dispositions for every signal, glibc's two internal ones too (its sigaction refuses those): the
    // kernel's struct sigaction for SIG_DFL, no flags, no mask is all zeros in every architecture's layout. But a
    // signal the caller left ignored that sut-launch keeps ignored (SIGHUP under nohup: signal_forwarding.c) is
    // SIG_IGN, as without sut-launch: the handler comes first in the kernel's struct on every architecture whose
    // signal set is 64 bits (asm-generic, x86).
    long none[4] = {0, 0, 0, 0};
    long ignore[4] = {(long)SIG_IGN, 0, 0, 0};
    for (int signal = 1; signal <= 64; signal++) {
        if (signal == SIGKILL || signal == SIGSTOP) continue;
        syscall(SYS_rt_sigaction, signal, process_signal_kept_ignored(signal) ? ignore : none, NULL, sizeof(kernel_sigset));
    }
    if (arguments->terminal) {
        int fd = open(arguments->terminal, O_RDWR); // becomes the controlling terminal of the new session
        if (fd < 0) goto failed;
        for (int target = 0; target < 3; target++) {
            if (spawn_keep(fd, target) != 0) goto failed;
        }
        if (fd > 2) close(fd);
    } else {
        for (int target = 0; target < arguments->count; target++) {
            if (spawn_keep(arguments->descriptors[target], target) != 0) goto failed;
        }
    }
    if (arguments->directory && chdir(arguments->directory) != 0) goto failed;
    // Exactly 0, 1, 2 (and what was asked for) reach the program: nothing the caller left inheritable.
    close_descriptors(arguments->terminal ? 3 : (arguments->count > 3 ? arguments->count : 3), ~0U);
    sigset_t empty;
    sigemptyset(&empty);
    sigprocmask(SIG_SETMASK, &empty, NULL);
    execve(arguments->path, arguments->argv, arguments->envp);
failed:
    atomic_store(&arguments->error, error != 0 ? error : errno); // the spawner's errno, which sleeps (rule 3)
    _exit(127);
}

int process_spawn(const char *path, char *const *argv, char *const *envp, const char *directory,
                  const int *descriptors, int count, const char *terminal, int guard, int *pid, int *guarded) {
    struct spawn_arguments arguments = {path, argv, envp, directory, descriptors, count, terminal,
                                        guard && atomic_load(&reaper_state) == 1, 0, 0};
    int saved = errno;
    char *stack = mmap(NULL, SPAWN_STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (stack == MAP_FAILED) {
        int error = errno;
        errno = saved;
        return error;
    }
    kernel_sigset old;
    block_all_signals(&old); // no handler of ours may run in the child
    int child = clone(spawn_child, stack + SPAWN_STACK, CLONE_VM | CLONE_VFORK | SIGCHLD, &arguments);
    int error = child < 0 ? errno : atomic_load(&arguments.error);
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, &old, NULL, sizeof old);
    munmap(stack, SPAWN_STACK);
    if (child > 0 && error != 0) {
        int status;
        while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
        if (atomic_load(&arguments.guarded)) process_reaper_release(child);
    }
    errno = saved;
    if (error != 0) return error;
    *pid = child;
    *guarded = atomic_load(&arguments.guarded);
    return 0;
}

int process_become_subreaper(void) { return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0; }

int process_reaper_pid(void) { return reaper_pid; }
#endif
