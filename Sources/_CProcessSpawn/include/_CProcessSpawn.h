// The process runtime sut-launch's launcher stands on: the spawn and the reaper (process_spawn.c, Linux),
// and the handlers that forward the signals sut-launch receives to the program's group (signal_forwarding.c).
// The rules the spawn child and the reaper follow (they share this process's memory) are written at the top
// of process_spawn.c. Package-internal: ProcessEngine is its only client.
// The header includes no system header (their types would then belong to this module); pointers are untyped.
#ifndef C_PROCESS_SPAWN_H
#define C_PROCESS_SPAWN_H

// MARK: Spawn and reaper (Linux; macOS uses posix_spawn and a shell reaper, in Swift)

/// Starts the reaper: a process that shares this process's memory (clone with CLONE_VM: one clone, no exec,
/// no page-table copy), sits in a process group of its own with every signal blocked and every descriptor
/// closed but the read end of a pipe only this process writes, and waits for end of file on it. When this
/// process ends, however it ends, the kernel closes the pipe; the reaper then sends SIGTERM to every process
/// group still registered, SIGKILL 0.5 s later, and exits. Idempotent and thread-safe; waits for a start
/// process_reaper_begin made.
/// Returns 1 when the reaper runs, 0 when it could not start (no memory, no thread, no process).
int process_reaper_start(void);

/// Starts starting the reaper without waiting for it (process_reaper_start waits): the thread that clones it
/// then gets going while the caller prepares its launch. Idempotent and thread-safe.
void process_reaper_begin(void);

/// Registers a process group with the reaper (a slot in memory both processes share: no system call).
/// Returns 1, or 0 when the reaper does not run or all 4096 slots are taken.
int process_reaper_guard(int pgid);

/// Unregisters a process group (it ended and was reaped). Returns 1, or 0 when it was not registered.
int process_reaper_release(int pgid);

/// Makes this process a child subreaper (PR_SET_CHILD_SUBREAPER): a descendant orphaned by its parent (one that
/// left the program's group with setpgid and outlived it) becomes this process's child instead of init's, so the
/// run can find and stop it. Returns 1, or 0 when the kernel refused.
int process_become_subreaper(void);

/// The reaper's pid (a child of this process the end-of-run sweep must leave alone); 0 when it does not run.
int process_reaper_pid(void);

/// Spawns `path` as posix_spawn does (clone with CLONE_VM | CLONE_VFORK, then execve) in a process group of its
/// own, with default signal dispositions, an empty signal mask, `descriptors[i]` as its fd i (or, when
/// `terminal` is not NULL, that pseudo-terminal as fds 0-2 and controlling terminal of a new session), in
/// `directory` when not NULL, with every other descriptor closed. When `guard` is set and the reaper runs, the
/// child registers its group with the reaper before it execs, so no instant exists in which the program runs
/// unguarded; `*guarded` tells whether it did. Returns 0 and the pid in `*pid`, or an errno value.
/// errno is left as it was.
int process_spawn(const char *path, char *const *argv, char *const *envp, const char *directory,
                  const int *descriptors, int count, const char *terminal, int guard, int *pid, int *guarded);

// MARK: Signals sut-launch receives (POSIX)

/// The signals that end a run as SIGTERM does: SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2,
/// SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGIO, SIGPWR, SIGSTKFLT and the real-time signals: every signal whose
/// default action ends a process and that only comes from outside it; but not one the caller left ignored that
/// stays ignored (process_signal_kept_ignored).
void process_termination_set(void *set); // a sigset_t *

/// 1 when `signal` (SIGHUP, SIGINT or SIGQUIT) was ignored on entry (`nohup`, a non-interactive shell's `cmd &`)
/// and stays ignored, as POSIX shells keep it: no handler of ours, and every program launched inherits SIG_IGN.
/// Set by process_reset_inherited_signals; a read of one atomic word (the spawn child calls it).
int process_signal_kept_ignored(int signal);

/// A signal taken from the termination set, or SIGTERM standing for a crash signal (SIGABRT, SIGSEGV, SIGBUS,
/// SIGTRAP, SIGILL, SIGFPE, SIGSYS) another process sent before the forwarding handlers were installed: the
/// signal to act on.
int process_termination_signal(int received);

/// Installs a handler for the crash signals that tells a fault (or this process's own abort) from a `kill` by
/// another process: a fault goes on to the handler installed before (the Swift runtime's backtracer) or the
/// default action; a kill stops the run as SIGTERM does (forwarded once installed, else raised as SIGTERM).
void process_catch_external_crash_signals(void);

/// Installs handlers for the termination set that forward each to a process group (see process_forward_attach):
/// the first received is sent as is, every later one as SIGKILL. Before a group is attached they are only
/// counted. Unblocks them in the calling thread (threads it starts inherit that). SIGTSTP, SIGTTIN and SIGTTOU
/// stop the group and then sut-launch (as a shell stops a job); SIGCONT is passed on to the group.
/// A handler, not a sigwait thread: a run then starts one thread fewer (measured on the launch path).
void process_forward_install(void);

/// What a process inherits and keeps across exec, reset: every signal 1-31 its parent set to SIG_IGN (SIGCHLD
/// ignored makes the kernel reap children itself, so waitpid loses their status) back to SIG_DFL, but SIGHUP,
/// SIGINT and SIGQUIT, which stay ignored (process_signal_kept_ignored); and an empty signal mask. Handlers are left
/// alone (the Swift runtime's crash handlers). Returns how many were reset.
int process_reset_inherited_signals(void);

/// The process group signals are forwarded to from now on; a signal received before is sent to it now.
void process_forward_attach(int pgid);

/// The first forwarded signal received (0: none yet), how many were received, and when the first came
/// (CLOCK_MONOTONIC, nanoseconds).
int process_forward_first(void);
/// 1 once process_forward_install ran.
int process_forward_is_installed(void);
int process_forward_count(void);
long long process_forward_first_at(void);

// MARK: The terminal's sentinel (terminal_sentinel.c)

/// The sigqueue value that marks a signal the terminal sent the program's group, passed on by the sentinel.
#define PROCESS_TERMINAL_RELAY 0x53555454

/// Forks the sentinel into process group `pgid` (the program's, about to be given the terminal): the terminal's
/// SIGINT and SIGQUIT reach it with the program, and it passes each on to this process (sigqueue, value
/// PROCESS_TERMINAL_RELAY); it ignores every other signal but SIGKILL and holds no descriptor. Returns its pid or -1.
int process_terminal_sentinel_start(int pgid);

/// Kills the sentinel (SIGKILL) and reaps it; nothing when none runs.
void process_terminal_sentinel_stop(void);

/// The sentinel's pid while it runs, else 0.
int process_terminal_sentinel(void);

/// The process group the sentinel sits in: the program's, or the one the program gave the terminal to.
int process_terminal_sentinel_group(void);

/// While the terminal is handed to the program (else nothing, 0): moves the sentinel into the terminal's
/// foreground group when the program gave it to another group of the session (a job it runs, as a shell does), so
/// the terminal's Ctrl-C still reaches it; and when the program `program` has stopped (WSTOPPED, reported once),
/// stops this process with SIGSTOP, as a shell's job stops, and returns the program's stop signal. Called every
/// few tens of milliseconds by the thread that waits for the program.
int process_terminal_follow(int program);

/// The group the terminal is handed to (0: none): after a stop (Ctrl-Z) and `fg`, SIGCONT gives it back to it.
void process_terminal_handed(int pgid);

/// When a group was handed the terminal and this process is in the foreground again (`fg`), hands it back to that
/// group. Async-signal-safe (tcgetpgrp, tcsetpgrp).
void process_terminal_hand_back_if_foreground(void);

#endif
