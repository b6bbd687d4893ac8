// The terminal's sentinel (see _CProcessSpawn.h): when sut-launch hands its terminal to the program's group, the
// terminal's Ctrl-C and Ctrl-\ go to that group only. A small forked process in that group is told them too and
// passes them on to sut-launch with sigqueue, marked, so the run knows the user pressed them (signal_forwarding.c
// does not send the group what it already got from the terminal). When the program gives the terminal to another
// group of its own (a child it started with setpgid and tcsetpgrp, as a shell runs a job), the sentinel follows it
// there (process_terminal_follow, which sut-launch's waiting thread calls every 50 ms: not the sentinel, so the rules
// below do not bind it), so a Ctrl-C typed then still counts (R8C-8).
// Ctrl-Z is not relayed: the program stops (or does not, if it handles it) as under a shell, and sut-launch stops when
// it sees the program stopped, as a shell sees its job stop (R8C-12).
//
// The sentinel is a fork of a multi-threaded process: it calls only async-signal-safe functions (setpgid, sigaction,
// sigprocmask, prctl, getppid, sigqueue, sigsuspend, _exit), never malloc, a lock or stdio. It holds no descriptor
// (closed at once: a reader of our stdout or a pipe of the program's must not wait for it) and dies with sut-launch
// (PR_SET_PDEATHSIG), and by SIGKILL when the program exits (process_terminal_sentinel_stop).
#define _GNU_SOURCE
#include "_CProcessSpawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#if defined(__linux__)
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static _Atomic int sentinel;       // its pid while it runs
static _Atomic int sentinel_group; // the group it sits in: the program's, or the one the program gave the terminal
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
    int relayed[] = {SIGINT, SIGQUIT};
    sigset_t wait;
    sigfillset(&wait);
    for (int index = 0; index < 2; index++) {
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
        atomic_store(&sentinel_group, pgid);
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

int process_terminal_sentinel_group(void) { return atomic_load(&sentinel_group); }

// The parent of `pid` from /proc/PID/stat ("pid (comm) state ppid ..."; comm may hold spaces and parentheses), or -1.
static int parent_of(int pid) {
    char path[32], text[512];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t count = read(fd, text, sizeof text - 1);
    close(fd);
    if (count <= 0) return -1;
    text[count] = 0;
    char *end = strrchr(text, ')');
    int parent = -1;
    if (end == NULL || sscanf(end + 1, " %*c %d", &parent) != 1) return -1;
    return parent;
}

// Whether process group `group` is one the run started: its leader descends from the program (or was orphaned to
// sut-launch, the run form's subreaper). The shell that started sut-launch, which takes the terminal back after
// Ctrl-Z and `bg`, is an ancestor, never a descendant: the sentinel must not join it. A group whose leader has
// exited is not followed (nothing tells whose it is).
static int started_by_run(int group, int program) {
    int pid = group;
    for (int depth = 0; depth < 64 && pid > 1; depth++) {
        if (pid == program || pid == getpid()) return 1;
        pid = parent_of(pid);
    }
    return 0;
}

int process_terminal_follow(int program) {
    if (atomic_load(&terminal_group) <= 0) return 0;
    // The terminal's foreground group: the sentinel goes where Ctrl-C goes, when the run started that group.
    // setpgid moves a child that has not exec'd into any group of its session; one gone (ESRCH) leaves it.
    int pid = atomic_load(&sentinel);
    int foreground = tcgetpgrp(0);
    if (pid > 0 && foreground > 0 && foreground != getpgrp() && foreground != atomic_load(&sentinel_group) &&
        started_by_run(foreground, program) && setpgid(pid, foreground) == 0) {
        atomic_store(&sentinel_group, foreground);
    }
    // The program stopped (Ctrl-Z, or it stopped itself as vim and less do after restoring the terminal): stop with
    // it, as a shell's job stops, so the shell that started sut-launch takes the terminal back; `fg` continues both
    // (continue_handler). SIGSTOP: sut-launch's group may be orphaned (a session leader), where SIGTSTP is dropped.
    // WSTOPPED without WEXITED reaps nothing; each stop is reported once, none once the program was continued.
    siginfo_t info;
    memset(&info, 0, sizeof info);
    if (waitid(P_PID, (id_t)program, &info, WSTOPPED | WNOHANG) != 0 || info.si_pid != program) return 0;
    if (info.si_code != CLD_STOPPED) return 0;
    kill(getpid(), SIGSTOP);
    return info.si_status;
}

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
int process_terminal_sentinel_group(void) { return 0; }
int process_terminal_follow(int program) {
    (void)program;
    return 0;
}
void process_terminal_handed(int pgid) { (void)pgid; }
void process_terminal_hand_back_if_foreground(void) {}

#endif
