/*
 * Scratch directories: one per run (the root, under the system's temporary
 * directory) and one per executor slot inside it, emptied after each case.
 * Slots reuse their directory because making and removing one per case costs
 * a block allocation and a discard on filesystems mounted with discard.
 */
#ifndef TREBUCHET_SCRATCH_H
#define TREBUCHET_SCRATCH_H

#include <stddef.h>

/* Creates a fresh run root under parent; writes its path to out. */
int tb_scratch_create(const char *parent, char *out, size_t outlen);

/* Removes the roots of runs whose executor is no longer alive (its pid is
 * gone and nothing holds the lock tb_scratch_create took). */
void tb_scratch_sweep(const char *parent);

/* Empties the directory open as fd, whatever the test left there, using
 * buf (len bytes, at least 4096) for directory entries.  An empty directory
 * costs two system calls.  0 or -1. */
int tb_empty_dir(int fd, void *buf, size_t len);

/* Removes name (relative to dirfd) and everything below it, whatever the
 * test left there (read-only files, unreadable directories).  0 or -1. */
int tb_remove_tree(int dirfd, const char *name);

#endif
