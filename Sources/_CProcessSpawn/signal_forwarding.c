// Signals sut-launch receives (see _CProcessSpawn.h): the ones that end a run, forwarded to the program's group;
// job control passed on to it; crash signals told apart by who sent them.
#define _GNU_SOURCE
#include "_CProcessSpawn.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

// Signals whose default action ends a process and that only ever come from outside (kill, a terminal, a timer,
// a CPU limit): they end a run as SIGTERM does.
static const int terminating[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM,
                                  SIGPROF, SIGXCPU, SIGIO, SIGPWR,
#ifdef SIGSTKFLT
                                  SIGSTKFLT,
#endif
};
#define TERMINATING_COUNT (int)(sizeof terminating / sizeof terminating[0])

// Signals that stay ignored when the caller left them ignored (POSIX: `nohup` ignores SIGHUP, a non-interactive shell's
// `cmd &` SIGINT and SIGQUIT; both stay ignored in what they run): no handler of ours, and the program inherits
// SIG_IGN, as it would without sut-launch. Every other ignored signal is reset (SIGCHLD ignored loses exit statuses;
// SIGTERM ignored would make the run unstoppable, threat model "Inherited process state").
static const int kept_when_ignored[] = {SIGHUP, SIGINT, SIGQUIT};
#define KEPT_COUNT (int)(sizeof kept_when_ignored / sizeof kept_when_ignored[0])
static _Atomic unsigned long kept_ignored; // bit N: signal N was ignored on entry and stays so

// Signals a real fault raises in the faulting thread, and that `kill` can send as well.
static const int crashing[] = {SIGABRT, SIGSEGV, SIGBUS, SIGTRAP, SIGILL, SIGFPE, SIGSYS};
#define CRASHING_COUNT (int)(sizeof crashing / sizeof crashing[0])
static struct sigaction crash_previous[CRASHING_COUNT];

static _Atomic int forward_installed;
static _Atomic int forward_group;
static _Atomic int forward_first_signal;
static _Atomic int forward_received;
static _Atomic long long forward_first_at;
static _Atomic int redirected; // a crash signal sent from outside before the handlers were installed

void process_termination_set(void *untyped) {
    sigset_t *set = untyped;
    sigemptyset(set);
    for (int index = 0; index < TERMINATING_COUNT; index++) sigaddset(set, terminating[index]);
#if defined(SIGRTMIN) && defined(SIGRTMAX)
    for (int signal = SIGRTMIN; signal <= SIGRTMAX; signal++) sigaddset(set, signal);
#endif
    // Kept ignored: never blocked (a blocked signal is queued even when ignored, and sigwait would take it), never
    // handled, never waited for.
    for (int index = 0; index < KEPT_COUNT; index++) {
        if (process_signal_kept_ignored(kept_when_ignored[index])) sigdelset(set, kept_when_ignored[index]);
    }
}

int process_signal_kept_ignored(int signal) {
    return signal > 0 && signal < 64 && (atomic_load(&kept_ignored) & (1UL << signal)) != 0;
}

int process_termination_signal(int received) {
    if (received != SIGTERM) return received;
    int original = atomic_exchange(&redirected, 0);
    return original != 0 ? original : received;
}

// `fromTerminal`: the terminal sent it to the program's group already (the sentinel passed it on): not sent again.
static void forward(int signal, int fromTerminal) {
    int saved = errno;
    signal = process_termination_signal(signal);
    int count = atomic_fetch_add(&forward_received, 1) + 1;
    int expected = 0;
    if (atomic_compare_exchange_strong(&forward_first_signal, &expected, signal)) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now); // async-signal-safe
        atomic_store(&forward_first_at, (long long)now.tv_sec * 1000000000LL + now.tv_nsec);
    }
    int group = atomic_load(&forward_group);
    if (group > 0 && !(fromTerminal && count == 1)) {
        kill(-group, count == 1 ? signal : SIGKILL);
        // A stopped program (SIGSTOP, SIGTSTP) cannot run its handler: continue it, as GNU timeout does.
        if (count == 1) kill(-group, SIGCONT);
    }
    errno = saved;
}

static void forward_handler(int signal) { forward(signal, 0); }

// The terminal sent it to the program's group already: relayed by the sentinel while it sits there. Relayed from
// another group (the program gave the terminal to a job of its own), the program's group is sent it as without a
// terminal.
static int relayed_by_sentinel(const siginfo_t *info) {
    int sentinel = process_terminal_sentinel();
    return info != NULL && sentinel > 0 && info->si_code == SI_QUEUE && info->si_pid == sentinel &&
           info->si_value.sival_int == PROCESS_TERMINAL_RELAY &&
           process_terminal_sentinel_group() == atomic_load(&forward_group);
}

static void forward_action(int signal, siginfo_t *info, void *context) {
    (void)context;
    forward(signal, relayed_by_sentinel(info));
}

/// A crash signal: from another process (SI_USER, SI_QUEUE, SI_TKILL with a foreign pid) it is a request to
/// stop, handled as SIGTERM is; from a fault or from this process (abort) it goes to the handler that was there
/// before (the Swift runtime's backtracer), or to the default action, so a real crash still crashes.
static void crash_handler(int signal, siginfo_t *info, void *context) {
    if (info != NULL && info->si_code <= 0 && info->si_pid != getpid()) {
        if (atomic_load(&forward_installed)) {
            forward_handler(signal);
        } else {
            int saved = errno;
            int expected = 0;
            atomic_compare_exchange_strong(&redirected, &expected, signal);
            kill(getpid(), SIGTERM); // blocked: the thread waiting in sigwait takes it (process_termination_signal)
            errno = saved;
        }
        return;
    }
    for (int index = 0; index < CRASHING_COUNT; index++) {
        if (crashing[index] != signal) continue;
        struct sigaction *previous = &crash_previous[index];
        if ((previous->sa_flags & SA_SIGINFO) && previous->sa_sigaction != NULL) {
            previous->sa_sigaction(signal, info, context);
            return;
        }
        if (previous->sa_handler != SIG_DFL && previous->sa_handler != SIG_IGN && previous->sa_handler != NULL) {
            previous->sa_handler(signal);
            return;
        }
    }
    // The default action: a fault faults again on return; a signal this process sent itself is raised again
    // (blocked while this handler runs, delivered as it returns).
    struct sigaction standard;
    memset(&standard, 0, sizeof standard);
    standard.sa_handler = SIG_DFL;
    sigemptyset(&standard.sa_mask);
    sigaction(signal, &standard, NULL);
    if (info == NULL || info->si_code <= 0) raise(signal);
}

void process_catch_external_crash_signals(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = crash_handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART; // the runtime's alternate stack, for stack overflows
    for (int index = 0; index < CRASHING_COUNT; index++) {
        struct sigaction previous;
        if (sigaction(crashing[index], NULL, &previous) != 0) continue;
        if (previous.sa_handler == SIG_IGN) continue;
        crash_previous[index] = previous;
        sigaction(crashing[index], &action, NULL);
    }
}

// Job control: a stop request sent to sut-launch (`kill -TSTP`; the terminal's Ctrl-Z goes to the program's group,
// and process_terminal_follow stops sut-launch once the program stopped) stops the program's group with sut-launch,
// as a shell stops a whole job; SIGCONT continues both.
static void stop_handler(int signal) {
    int saved = errno;
    int group = atomic_load(&forward_group);
    if (group > 0) kill(-group, signal);
    kill(getpid(), SIGSTOP);
    errno = saved;
}

static void continue_handler(int signal) {
    int saved = errno;
    process_terminal_hand_back_if_foreground(); // `fg` after Ctrl-Z: the program reads the terminal again
    int group = atomic_load(&forward_group);
    if (group > 0) kill(-group, signal);
    errno = saved;
}

void process_forward_install(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = forward_action;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART | SA_SIGINFO;
    sigset_t set;
    process_termination_set(&set);
    for (int signal = 1; signal < NSIG; signal++) {
        if (sigismember(&set, signal) == 1) sigaction(signal, &action, NULL);
    }
    atomic_store(&forward_installed, 1);
    action.sa_flags = SA_RESTART;
    action.sa_handler = stop_handler;
    int stops[] = {SIGTSTP, SIGTTIN, SIGTTOU};
    for (int index = 0; index < 3; index++) sigaction(stops[index], &action, NULL);
    action.sa_handler = continue_handler;
    sigaction(SIGCONT, &action, NULL);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

void process_forward_attach(int pgid) {
    // Publish the group first, then look for a signal that came before: one received in between is sent by
    // the handler (it sees the group) and perhaps again here, which for the first signal is harmless.
    atomic_store(&forward_group, pgid);
    int first = atomic_load(&forward_first_signal);
    if (first != 0 && pgid > 0) {
        kill(-pgid, atomic_load(&forward_received) > 1 ? SIGKILL : first);
        kill(-pgid, SIGCONT);
    }
}

int process_forward_is_installed(void) { return atomic_load(&forward_installed); }
int process_forward_first(void) { return atomic_load(&forward_first_signal); }
int process_forward_count(void) { return atomic_load(&forward_received); }
long long process_forward_first_at(void) { return atomic_load(&forward_first_at); }

int process_reset_inherited_signals(void) {
    int reset = 0;
    for (int signal = 1; signal < 32; signal++) {
        if (signal == SIGKILL || signal == SIGSTOP) continue;
        struct sigaction old;
        if (sigaction(signal, NULL, &old) != 0 || old.sa_handler != SIG_IGN) continue;
        int kept = 0;
        for (int index = 0; index < KEPT_COUNT; index++) kept |= kept_when_ignored[index] == signal;
        if (kept) {
            atomic_fetch_or(&kept_ignored, 1UL << signal);
            continue;
        }
        struct sigaction standard;
        memset(&standard, 0, sizeof standard);
        standard.sa_handler = SIG_DFL;
        sigemptyset(&standard.sa_mask);
        if (sigaction(signal, &standard, NULL) == 0) reset++;
    }
    sigset_t none;
    sigemptyset(&none);
    pthread_sigmask(SIG_SETMASK, &none, NULL);
    return reset;
}
