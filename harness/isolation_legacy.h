/*
 * The sandbox's mounts with mount(2) alone, for where open_tree(2),
 * move_mount(2) and mount_setattr(2) answer ENOSYS (Valgrind 3.19, older
 * kernels).  isolation.c calls these only then; isolation_legacy.c says
 * how each stands in for its new call and where it cannot.
 */
#ifndef TREBUCHET_ISOLATION_LEGACY_H
#define TREBUCHET_ISOLATION_LEGACY_H

#include <stddef.h>

/* the most paths tb_legacy_read_only_but() leaves writable */
#define TB_LEGACY_MAX_RW 8

/* Binds the directory open at fd over path, through /proc/self/fd; rec
 * MS_REC for its mounts too, or 0.  As mount(2). */
int tb_legacy_bind(int fd, const char *path, unsigned long rec);

/* Binds the directory open at fd onto itself with its mounts, and moves
 * into the new mount.  As mount(2). */
int tb_legacy_bind_onto_itself(int fd);

/* Every mount read-only but those of the nrw paths rw, each remounted
 * with the flags it has.  0, or -1 with errno and, in failed_at, the
 * mount point that refused. */
int tb_legacy_read_only_but(const char *const *rw, int nrw, char *failed_at, size_t len);

#endif
