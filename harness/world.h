/*
 * The world a test process sees, made the same whoever started trebuchet:
 * personality, stack limit, environment and its size, signal dispositions,
 * umask and descriptor limit.  world.c says what each is and why.
 */
#ifndef TREBUCHET_WORLD_H
#define TREBUCHET_WORLD_H

#include <sys/types.h>

/* First thing in main(): re-executes the executor into its settled world
 * (once; the re-executed process returns at once).  Where that cannot be
 * done it returns and the run goes on in the caller's world. */
void tb_world_settle(char **argv);

/* The sanitizer the executor runs under ("address", "undefined"), "" for none. */
const char *tb_world_sanitizer(void);

/* 1 when that sanitizer is known and its runtime is loaded (an executor
 * that could not re-execute runs without it). */
int tb_world_sanitizer_loaded(void);

/* 1 under a sanitizer with shadow memory (ASan), which no address-space
 * limit can hold. */
int tb_world_shadow(void);

/* Where the run's scratch directory goes by default: the caller's TMPDIR,
 * else /tmp. */
const char *tb_world_scratch_parent(void);

/* The directory the caller's TREBUCHET_SHARE names, NULL when unset: the
 * one place outside the run a test process may write (isolation.h). */
const char *tb_world_share(void);

/* Points TMPDIR and HOME of every later test process at scratch (allocates
 * nothing). */
void tb_world_enter(const char *scratch);

/* The uid and gid of user name (nobody, whom test processes become), looked
 * up in a child process.  getpwnam() reads /etc/passwd in the process that
 * asks and leaves its buffers there, freed, holding the file's text, so the
 * heap every test process inherits followed the machine's list of users:
 * Debian 13's /etc/passwd bound over this machine's turned 183 of freopen's
 * 5000 cases (0 with the lookup here).  0, or -1 when there is no such
 * user. */
int tb_world_user(const char *name, uid_t *uid, gid_t *gid);

/* In each fork server, once: what fork passes on (signal dispositions,
 * umask, the descriptor limit) set to fixed values. */
void tb_world_server(void);

/* In each fork server, last before its first fork: the heap and the stack
 * test processes inherit made the same whatever the executor did before
 * (world.c). */
void tb_world_memory(void);

/* Whether the executor runs under Valgrind (memcheck): its preload is in
 * the environment Valgrind gives each program it starts. */
int tb_world_under_valgrind(void);

#endif
