/*
 * The sandbox around a run's test processes: namespaces set up once per
 * fork server, so that nothing a tested function does reaches outside its
 * run.  isolation.c says what each level holds and why unshare(2) in the
 * executor rather than bubblewrap or nsjail.
 */
#ifndef TREBUCHET_ISOLATION_H
#define TREBUCHET_ISOLATION_H

#include <stddef.h>
#include <sys/types.h>

enum tb_isolation {
	TB_ISOLATION_NONE,  /* no namespace: as before, limits and nobody only */
	TB_ISOLATION_USER,  /* an ordinary user: the namespaces inside a user
			     * namespace of its own, without capabilities */
	TB_ISOLATION_FULL,  /* root: the namespaces, test processes as nobody */
};

/* The level's name as the store keeps it: "none", "user", "full". */
const char *tb_isolation_name(enum tb_isolation level);

/* The best level this process may try: FULL as root, else USER. */
enum tb_isolation tb_isolation_best(void);

/* fork(), into new namespaces at level (a plain fork() at NONE): the child
 * is the first process of its PID namespace; it enters its mount namespace
 * in tb_isolate() (isolation.c says why).  As fork(). */
pid_t tb_isolation_fork(enum tb_isolation level);

/* In the child of tb_isolation_fork(), working in the run's scratch
 * directory scratch (its name, for messages): enters a mount namespace of
 * its own, makes the filesystem read-only but scratch, gives
 * /tmp, /var/tmp and /dev/shm private directories inside it, mounts the
 * PID namespace's /proc, moves into the writable scratch and, at USER,
 * drops capabilities.  share, when not NULL, is the absolute path of a
 * directory the user
 * shares with test processes on purpose (TREBUCHET_SHARE): it appears,
 * writable, as scratch/share, at every level (a link at NONE).  0, or -1
 * with a reason in err. */
int tb_isolate(enum tb_isolation level, const char *scratch, const char *share,
	       char *err, size_t errlen);

#endif
