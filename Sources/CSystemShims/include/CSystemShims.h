// The few C library calls Swift's Glibc module does not export (it is built without _GNU_SOURCE), wrapped
// so that they link directly, including into a fully static executable, where dlsym cannot find them.
// The header includes no system header (their types would then belong to this module); pointers are untyped.
#ifndef C_SYSTEM_SHIMS_H
#define C_SYSTEM_SHIMS_H

/// accept(2) whose new descriptor is close-on-exec from the start (accept4 on Linux).
/// `address` is a struct sockaddr *, `length` a socklen_t *.
int csystem_accept_cloexec(int fd, void *address, unsigned int *length);

/// pipe(2) with both ends close-on-exec from the start (pipe2 on Linux); 0, or -1 and errno.
int csystem_pipe_cloexec(int fds[2]);

/// posix_spawn_file_actions_addchdir_np on a posix_spawn_file_actions_t *: the child changes directory
/// before exec. 0 or an errno value.
int csystem_spawn_file_actions_addchdir(void *actions, const char *path);

/// posix_spawn_file_actions_addclosefrom_np (glibc >= 2.34): the child closes every descriptor >= `from`
/// before exec, so it gets exactly the ones the launcher dup2'd onto 0, 1, 2. 0 or an errno value
/// (ENOSYS where the C library lacks it; macOS uses POSIX_SPAWN_CLOEXEC_DEFAULT instead).
int csystem_spawn_file_actions_addclosefrom(void *actions, int from);

/// Makes glibc's malloc return large buffers to the system when they are freed (a fixed mmap threshold of
/// 1 MiB) and use at most 4 arenas, so a server's memory follows what it holds, not what it once held.
/// Does nothing on other C libraries.
void csystem_bound_malloc_caching(void);

/// Makes every thread allocate from glibc's main arena: a process with a few threads that allocate little
/// (one run of a program) then skips creating an arena per thread (a 128 MiB reservation, trimmed with two
/// munmaps and an mprotect each). Call before starting threads. Does nothing on other C libraries.
void csystem_single_malloc_arena(void);
/// Linux: restricts a new thread's CPUs to all the caller may use but the one it runs on (0 when there is no
/// other), so the thread starts at once on an idle CPU instead of queueing behind its creator.
int csystem_thread_attr_prefer_other_cpu(void *attributes);
/// Linux: gives the calling thread the CPUs of the process's main thread back.
void csystem_thread_allow_cpus_of_main(void);
/// memmem(3) (a GNU and BSD extension, linear time in glibc): the offset of `needle` in `haystack`, or -1.
long csystem_memmem(const void *haystack, unsigned long haystackLength, const void *needle, unsigned long needleLength);
/// An int read and written atomically (acquire / release), for a flag one thread polls while another sets it.
int csystem_atomic_load(const int *value);
void csystem_atomic_store(int *value, int newValue);

/// Opens a pseudo-terminal pair: returns the controller side (read-write, close-on-exec, not our controlling
/// terminal) with the window size set, and writes the path of the other side into `name` (`size` bytes).
/// -1 and errno on failure.
int csystem_open_pseudo_terminal(int columns, int rows, char *name, unsigned long size);

/// Sets a terminal's window size (the program in it gets SIGWINCH). 0, or -1 and errno.
int csystem_set_window_size(int fd, int columns, int rows);

/// The posix_spawn flag that makes the child a session leader (POSIX_SPAWN_SETSID), or 0 where the C library
/// has none. Opening a terminal then makes it the child's controlling terminal (Linux).
int csystem_spawn_setsid_flag(void);

/// pidfd_open(2) (Linux 5.3+): a close-on-exec descriptor that polls readable when process `pid` exits, so the
/// thread that reads a program's output also sees its exit (one thread per launch instead of two).
/// -1 and errno (ENOSYS on other systems).
int csystem_pidfd_open(int pid);

/// The signals that end a run as SIGTERM does (signals.c): SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2,
/// SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGIO, SIGPWR, SIGSTKFLT and the real-time signals: every signal whose
/// default action ends a process and that only comes from outside it.
void csystem_termination_set(void *set); // a sigset_t *

/// A signal taken from the termination set, or SIGTERM standing for a crash signal (SIGABRT, SIGSEGV, SIGBUS,
/// SIGTRAP, SIGILL, SIGFPE, SIGSYS) another process sent before the forwarding handlers were installed: the
/// signal to act on.
int csystem_termination_signal(int received);

/// Installs a handler for the crash signals that tells a fault (or this process's own abort) from a `kill` by
/// another process: a fault goes on to the handler installed before (the Swift runtime's backtracer) or the
/// default action; a kill stops the run as SIGTERM does (forwarded once installed, else raised as SIGTERM).
void csystem_catch_external_crash_signals(void);

/// Installs handlers for the termination set that forward each to a process group (see csystem_forward_attach):
/// the first received is sent as is, every later one as SIGKILL. Before a group is attached they are only
/// counted. Unblocks them in the calling thread (threads it starts inherit that). SIGTSTP, SIGTTIN and SIGTTOU
/// stop the group and then sut-launch (as a shell stops a job); SIGCONT is passed on to the group.
/// A handler, not a sigwait thread: a run then starts one thread fewer (measured on the launch path).
void csystem_forward_install(void);

/// What a process inherits and keeps across exec, reset: every signal 1-31 its parent set to SIG_IGN (SIGCHLD
/// ignored makes the kernel reap children itself, so waitpid loses their status) back to SIG_DFL, and an empty
/// signal mask. Handlers are left alone (the Swift runtime's crash handlers). Returns how many were reset.
int csystem_reset_inherited_signals(void);

/// The process group signals are forwarded to from now on; a signal received before is sent to it now.
void csystem_forward_attach(int pgid);

/// The first forwarded signal received (0: none yet), how many were received, and when the first came
/// (CLOCK_MONOTONIC, nanoseconds).
int csystem_forward_first(void);
int csystem_forward_count(void);
long long csystem_forward_first_at(void);

/// Starts the reaper (Linux on x86_64 and arm64): a process that shares this process's memory (clone with
/// CLONE_VM, so it costs one clone, no exec and no page-table copy), sits in a process group of its own with
/// every signal blocked and every descriptor closed but the read end of a pipe only this process writes,
/// and waits for end of file on it. When this process ends, however it ends, the kernel closes the pipe;
/// the reaper then sends SIGTERM to every process group still registered, SIGKILL 0.5 s later, and exits.
/// Idempotent and thread-safe. Returns 1 when the reaper runs, 0 where it is not supported or could not
/// start (the caller falls back to another watchdog).
int csystem_reaper_start(void);

/// Registers a process group with the reaper (a slot in memory both processes share: no system call).
/// Returns 1, or 0 when the reaper does not run or all 4096 slots are taken.
int csystem_reaper_guard(int pgid);

/// Spawns `path` as posix_spawn does (clone with CLONE_VM | CLONE_VFORK, then execve) in a process group of its
/// own, with default signal dispositions, an empty signal mask, `descriptors[i]` as its fd i (or, when
/// `terminal` is not NULL, that pseudo-terminal as fds 0-2 and controlling terminal of a new session), in
/// `directory` when not NULL, with every other descriptor closed. When `guard` is set and the reaper runs, the
/// child registers its group with the reaper before it execs, so no instant exists in which the program runs
/// unguarded; `*guarded` tells whether it did. Returns 0 and the pid in `*pid`, or an errno value: ENOSYS
/// where this is not supported (Linux on x86_64 and arm64 only; use posix_spawn).
int csystem_spawn(const char *path, char *const *argv, char *const *envp, const char *directory,
                  const int *descriptors, int count, const char *terminal, int guard, int *pid, int *guarded);

/// Unregisters a process group (it ended and was reaped). Returns 1, or 0 when it was not registered.
int csystem_reaper_release(int pgid);


#endif
