internal import _CProcessSpawn

/// The first thing `sut-launch` (and `sut-launch-foundation`) does: undo what the parent left that would change
/// the meaning of a result (DESIGN.md "Trust rules").
///
/// - Signals the parent set to ignore go back to their default: with SIGCHLD ignored (`trap '' CHLD` in a CI
///   shell) the kernel reaps the program itself and its exit status is lost (`sut-launch false` exited 0);
///   SIGTERM (and every signal that ends a run) then gets sut-launch's own handling (``SignalForwarder``), and
///   SIGPIPE is ignored by design (a closed stdout must not kill sut-launch before it writes its report).
///   SIGHUP, SIGINT and SIGQUIT left ignored stay ignored, as POSIX shells keep them (`nohup sut-launch …`
///   survives a hangup, `sut-launch … &` in a script a `kill -INT`): no handler, and the program inherits SIG_IGN
///   as it would without sut-launch (`process_signal_kept_ignored`; R8C-6).
/// - The signal mask starts empty, then the forwarded signals are blocked as ``SignalForwarder`` expects.
/// - Closed fds 0, 1, 2 are opened on /dev/null (``StandardDescriptors/openClosedOnes()``).
///
/// The umask and the resource limits are the caller's: reports are created with the caller's umask (as
/// any tool's output), the journal 0600 whatever the umask; a descriptor limit too low for a run is an
/// error naming it, never a result (see ``Launcher``).
package enum ProcessStart {
    /// Resets inherited signal state and standard descriptors; about 35 system calls.
    package static func prepare() {
        _ = process_reset_inherited_signals()
        SignalForwarder.blockSignalsInThisProcess()
        StandardDescriptors.openClosedOnes()
    }
}
