/*
 * The world a test process sees, made the same whoever started trebuchet:
 * personality, stack limit, environment and its size, signal dispositions,
 * umask and descriptor limit.  world.c says what each is and why.
 */
#ifndef TREBUCHET_WORLD_H
#define TREBUCHET_WORLD_H

/* First thing in main(): re-executes the executor into its settled world
 * (once; the re-executed process returns at once).  Where that cannot be
 * done it returns and the run goes on in the caller's world. */
void tb_world_settle(char **argv);

/* Where the run's scratch directory goes by default: the caller's TMPDIR,
 * else /tmp. */
const char *tb_world_scratch_parent(void);

/* The directory the caller's TREBUCHET_SHARE names, NULL when unset: the
 * one place outside the run a test process may write (isolation.h). */
const char *tb_world_share(void);

/* Points TMPDIR and HOME of every later test process at scratch (allocates
 * nothing). */
void tb_world_enter(const char *scratch);

/* In each fork server, once: what fork passes on (signal dispositions,
 * umask, the descriptor limit) set to fixed values. */
void tb_world_server(void);

#endif
