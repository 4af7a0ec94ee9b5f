/*
 * The result channel's mapping (record.h), fenced.  The records are shared
 * memory every test process maps, so a library's runaway write (sodium_pad
 * zeroing backwards over a huge block size, say) that sweeps into them
 * wipes its own record or a neighbour's: its marks gone, a crash then reads
 * as a value that could not be built, an exit as the sandbox failing.  A
 * page nobody may touch lies on each side of the records, so such a sweep
 * faults there, before it reaches them: an ABORT with its signal and site,
 * the same on every machine.  Nothing is paid per case.  A write aimed into
 * the records themselves (a wild pointer that lands there, not a sweep) is
 * still seen only by the marks' checksums (record.h).
 */
#ifndef TREBUCHET_CHANNEL_H
#define TREBUCHET_CHANNEL_H

#include "record.h"

/* n records, shared, between two guard pages; NULL (errno set) on failure. */
struct tb_record *tb_channel_map(int n);
void tb_channel_unmap(struct tb_record *records, int n);

#endif
