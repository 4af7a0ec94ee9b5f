/*
 * The services' door in WebAssembly: compiled with services.c to wasm32
 * (clang), translated back to C by wabt's wasm2c and called by sfi_host.c.
 * A wasm32 pointer is 32 bits, so struct svc_req's layout differs from the
 * host's: the host passes the request's fields as numbers, addresses being
 * offsets into the sandbox's linear memory, and reads back how much was
 * written from a slot whose offset it learns once.  Compiled for wasm32
 * only; imports nothing, like the services.
 */
#include "services.h"

/* the end of the module's data and stack: the host puts the service's arena and the caller's blocks above it */
extern unsigned char __heap_base;

static uint64_t out_len_slot;

uint32_t sfi_heap_base(void)
{
	return (uint32_t)(uintptr_t)&__heap_base;
}

uint32_t sfi_out_len_slot(void)
{
	return (uint32_t)(uintptr_t)&out_len_slot;
}

int64_t sfi_call(uint32_t state, uint32_t state_len, uint32_t op, uint32_t flags, uint64_t arg, uint64_t arg2,
		 uint32_t in, uint32_t in_len, uint32_t out, uint32_t out_cap)
{
	struct svc_req r = { .op = op, .flags = flags, .arg = arg, .arg2 = arg2,
			     .in = (const uint8_t *)(uintptr_t)in, .in_len = in_len,
			     .out = (uint8_t *)(uintptr_t)out, .out_len = out_cap };
	int64_t got = svc_call((void *)(uintptr_t)state, state_len, &r);

	out_len_slot = r.out_len;
	return got;
}
