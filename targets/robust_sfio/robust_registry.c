/*
 * The registry of open streams (robust_registry.h): an open-addressing hash
 * set of pointers with tombstones, grown by doubling.  Single-threaded, as
 * the rest of this SFIO build is used here.
 */
#include <stdlib.h>

#include "robust_registry.h"

#define EMPTY ((uintptr_t)0)
#define GONE ((uintptr_t)1)  /* a removed entry: probing goes on past it */

static uintptr_t *slots;
static size_t capacity, used;  /* used counts live entries and tombstones */
uint64_t rs_registry_generation;

static size_t home(uintptr_t key)
{
	return (size_t)((key >> 4) * 0x9e3779b97f4a7c15ull) & (capacity - 1);
}

static size_t find(uintptr_t key)
{
	size_t i = home(key);

	while (slots[i] != EMPTY && slots[i] != key)
		i = (i + 1) & (capacity - 1);
	return i;
}

static int grow(void)
{
	uintptr_t *old = slots;
	size_t old_capacity = capacity, i;

	capacity = capacity ? capacity * 2 : 64;
	slots = calloc(capacity, sizeof(*slots));
	if (!slots) {
		slots = old;
		capacity = old_capacity;
		return -1;
	}
	used = 0;
	for (i = 0; i < old_capacity; i++)
		if (old[i] != EMPTY && old[i] != GONE) {
			slots[find(old[i])] = old[i];
			used++;
		}
	free(old);
	return 0;
}

int rs_stream_add(const void *f)
{
	uintptr_t key = (uintptr_t)f;

	if (key <= GONE || ((used + 1) * 2 > capacity && grow()))
		return -1;
	if (slots[find(key)] != key) {
		slots[find(key)] = key;
		used++;
	}
	return 0;
}

void rs_stream_remove(const void *f)
{
	uintptr_t key = (uintptr_t)f;
	size_t i;

	if (key <= GONE || !capacity)
		return;
	i = find(key);
	if (slots[i] == key) {
		slots[i] = GONE;
		rs_registry_generation++;
	}
}

int rs_stream_known(const void *f)
{
	uintptr_t key = (uintptr_t)f;

	return key > GONE && capacity && slots[find(key)] == key;
}
