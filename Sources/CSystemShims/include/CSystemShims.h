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

#endif
