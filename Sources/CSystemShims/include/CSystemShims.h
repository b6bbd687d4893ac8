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

// Process-wide tuning: called by ProcessTuning, which main.swift uses; never by a library.

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
/// A word written atomically (release) into memory another thread reads: what XPathWatchdog lowers libxml2's
/// operation limit with while an evaluation runs.
void csystem_atomic_store_word(unsigned long *value, unsigned long newValue);

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

/// Waits until the process `pidfd` names (a child of this process) has exited and returns its wait status (as
/// waitpid's) without reaping it (waitid P_PIDFD, WNOWAIT, Linux 5.4+): the one who reaps it (Foundation.Process)
/// still can. -1 and errno (ECHILD once it was reaped meanwhile; ENOSYS on other systems).
int csystem_pidfd_peek_exit(int pidfd);

/// 1 when this process is a statically linked executable (Linux: no dynamic loader, AT_BASE is 0), else 0.
/// A library loaded with dlopen there brings a second C library in beside the static one.
int csystem_is_static_executable(void);

#endif
