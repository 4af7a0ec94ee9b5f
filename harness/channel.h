/*
 * The result channel (record.h) sealed while the function under test runs.
 * The records are shared memory every test process maps, so a wild write
 * by the library (sodium_pad zeroing backwards over a huge block size, say)
 * could wipe its own record or a neighbour's: its marks gone, a crash then
 * reads as a value that could not be built, an exit as the sandbox failing.
 * Read-only during the call, the same write faults instead, where it is
 * made: an ABORT with its signal and site, the same on every machine.
 */
#ifndef TREBUCHET_CHANNEL_H
#define TREBUCHET_CHANNEL_H

#include "record.h"

/* Once, in a fork server, before its first fork: the mapping its test
 * processes inherit, of mapped records, the first used of them in use.
 * The others are made inaccessible: 0, or -1 (errno). */
int tb_channel_set(struct tb_record *records, int used, int mapped);

/* In a test process: read-only from just before the call, writable again
 * once it returned, and in the crash handler before it writes the site. */
void tb_channel_seal(void);
void tb_channel_unseal(void);

#endif
