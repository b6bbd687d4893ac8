// The terminal's sentinel (see _CProcessSpawn.h): when sut-launch hands its terminal to the program's group, the
// terminal's Ctrl-C, Ctrl-\ and Ctrl-Z go to that group only. A small forked process in that group is told them too
// and passes them on to sut-launch with sigqueue, marked, so the run knows the user pressed them (signal_forwarding.c
// does not send the group what it already got from the terminal).
//
// The sentinel is a fork of a multi-threaded process: it calls only async-signal-safe functions (setpgid, sigaction,
// sigprocmask, prctl, getppid, sigqueue, sigsuspend, _exit), never malloc, a lock or stdio. It holds no descriptor
// (closed at once: a reader of our stdout or a pipe of the program's must not wait for it) and dies with sut-launch
// (PR_SET_PDEATHSIG), and by SIGKILL when the program exits (process_terminal_sentinel_stop).
#define _GNU_SOURCE
#include "_CProcessSpawn.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#if defined(__linux__)
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static _Atomic int sentinel;       // its pid while it runs
static _Atomic int terminal_group; // the group the terminal was handed to, while it is

static pid_t notified;

// In the sentinel: a signal the terminal sent (SI_KERNEL) goes to sut-launch, marked; any other (sut-launch's own
// forwarding to the group, a kill) is ignored.
static void relay(int signal, siginfo_t *info, void *context) {
    (void)context;
    if (info == NULL || info->si_code != SI_KERNEL) return;
    int saved = errno;
    union sigval value;
    value.sival_int = PROCESS_TERMINAL_RELAY;
    sigqueue(notified, signal, value);
    errno = saved;
}

static void sentinel_main(int pgid) {
    syscall(SYS_close_range, 0U, ~0U, 0U);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    prctl(PR_SET_NAME, "sut-terminal", 0, 0, 0); // told apart from sut-launch in ps, as sut-reaper is
    if (getppid() != notified) _exit(0); // sut-launch is already gone
    if (setpgid(0, pgid) != 0) _exit(0); // the program is gone already
    struct sigaction action;
    memset(&action, 0, sizeof action);
    sigemptyset(&action.sa_mask);
    for (int signal = 1; signal < 32; signal++) {
        if (signal == SIGKILL || signal == SIGSTOP) continue;
        action.sa_handler = SIG_IGN;
        sigaction(signal, &action, NULL);
    }
    action.sa_sigaction = relay;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    int relayed[] = {SIGINT, SIGQUIT, SIGTSTP};
    sigset_t wait;
    sigfillset(&wait);
    for (int index = 0; index < 3; index++) {
        sigaction(relayed[index], &action, NULL);
        sigdelset(&wait, relayed[index]);
    }
    for (;;) sigsuspend(&wait);
}

int process_terminal_sentinel_start(int pgid) {
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old); // no handler of ours runs in the child before its own are set
    notified = getpid();
    pid_t pid = fork();
    if (pid == 0) sentinel_main(pgid);
    int saved = errno;
    if (pid > 0) {
        setpgid(pid, pgid); // as shells do, from both sides: in the group before the terminal is handed over
        atomic_store(&sentinel, pid);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = saved;
    return pid;
}

void process_terminal_sentinel_stop(void) {
    int pid = atomic_exchange(&sentinel, 0);
    if (pid <= 0) return;
    kill(pid, SIGKILL);
    while (waitpid(pid, NULL, __WALL) < 0 && errno == EINTR) {}
}

int process_terminal_sentinel(void) { return atomic_load(&sentinel); }

void process_terminal_handed(int pgid) { atomic_store(&terminal_group, pgid); }

void process_terminal_hand_back_if_foreground(void) {
    int group = atomic_load(&terminal_group);
    if (group > 0 && isatty(0) && tcgetpgrp(0) == getpgrp()) tcsetpgrp(0, group);
}

#else

int process_terminal_sentinel_start(int pgid) {
    (void)pgid;
    return -1;
}
void process_terminal_sentinel_stop(void) {}
int process_terminal_sentinel(void) { return 0; }
void process_terminal_handed(int pgid) { (void)pgid; }
void process_terminal_hand_back_if_foreground(void) {}

#endif
