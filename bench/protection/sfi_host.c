/*
 * Software fault isolation, as RLBox does it: the services compiled to
 * WebAssembly and back to C by wabt's wasm2c (services_wasm.c, made by
 * protection.mk), run by wasm2c's runtime with explicit bounds checks on
 * every load and store (WASM_RT_MEMCHECK_SIGNAL_HANDLER=0, so no signal
 * handler is installed: the caller's stays in force).  Built with them into
 * libprotection_wasm.so, which protbench loads from beside itself (schemes.c),
 * so that the driver builds without the wasm toolchain.
 *
 * A sandbox is one module instance whose linear memory holds, above the
 * module's data and stack, the service's arena and a client region of the
 * caller's size.  Two ways to move the data: copied into the client region
 * and out again (sfi_call_copy), or shared, the caller's buffers being the
 * client region itself (sfi_call_shared, whose blocks must lie inside it).
 * A trap in the service (a store outside linear memory, a stack exhausted)
 * is an error return, SVC_EFAULT; the service's state is kept, as the
 * guarded call keeps it, and the stack pointer the trap left is put back.
 */
#include <stdlib.h>
#include <string.h>

#include "services.h"
#include "services_wasm.h"
#include "wasm-rt-impl.h"

#define WASM_PAGE 65536u

struct sandbox {
	Z_protection_instance_t inst;
	wasm_rt_memory_t *mem;
	uint32_t state, state_len;       /* the arena: offset and length in linear memory */
	uint32_t client, client_len;     /* the client region */
	uint32_t out_len_slot;
};

static uint32_t round_up(uint64_t n, uint64_t to)
{
	return (uint32_t)((n + to - 1) / to * to);
}

/* NULL when the arena and the region do not fit in 4 GB of linear memory */
void *sfi_open(uint64_t state_len, uint64_t client_len, uint8_t **client)
{
	static int initialized;
	struct sandbox *sb = calloc(1, sizeof *sb);
	uint64_t top;

	if (!sb)
		return NULL;

	if (!initialized) {
		wasm_rt_init();
		Z_protection_init_module();
		initialized = 1;
	}
	Z_protection_instantiate(&sb->inst);
	sb->mem = Z_protectionZ_memory(&sb->inst);
	sb->out_len_slot = Z_protectionZ_sfi_out_len_slot(&sb->inst);
	sb->state = round_up(Z_protectionZ_sfi_heap_base(&sb->inst), 64);
	top = (uint64_t)sb->state + round_up(state_len, 64) + client_len;
	if (top > 0xffff0000u || wasm_rt_grow_memory(sb->mem, round_up(top, WASM_PAGE) / WASM_PAGE -
						     (sb->mem->size / WASM_PAGE)) == (uint32_t)-1) {
		Z_protection_free(&sb->inst);
		free(sb);
		return NULL;
	}
	sb->state_len = (uint32_t)state_len;
	sb->client = sb->state + round_up(state_len, 64);
	sb->client_len = (uint32_t)client_len;
	*client = sb->mem->data + sb->client;
	return sb;
}

void sfi_close(void *sandbox)
{
	struct sandbox *sb = sandbox;

	Z_protection_free(&sb->inst);
	free(sb);
}

/* the service on offsets into linear memory; a trap is SVC_EFAULT */
static int64_t enter(struct sandbox *sb, const struct svc_req *r, uint32_t in, uint32_t out, uint64_t *out_len)
{
	uint32_t stack = sb->inst.w2c___stack_pointer;
	int64_t got;

	if (wasm_rt_impl_try() != 0) {
		sb->inst.w2c___stack_pointer = stack;
		return SVC_EFAULT;
	}
	got = (int64_t)Z_protectionZ_sfi_call(&sb->inst, sb->state, sb->state_len, r->op, r->flags, r->arg,
					      r->arg2, in, (uint32_t)r->in_len, out, (uint32_t)r->out_len);
	memcpy(out_len, sb->mem->data + sb->out_len_slot, sizeof *out_len);
	return got;
}

/* The data copied: in to the client region's start, out after it (or in
 * place of it for SVC_INOUT), as the process boundary's server lays it out,
 * and what the service wrote copied back. */
int64_t sfi_call_copy(void *sandbox, struct svc_req *r)
{
	struct sandbox *sb = sandbox;
	uint8_t *region = sb->mem->data + sb->client;
	uint64_t out_at = r->flags & SVC_INOUT ? 0 : r->in_len, written = 0;
	int64_t got;

	if (r->in_len > sb->client_len || r->out_len > sb->client_len - out_at)
		return SVC_EINVAL;
	if (r->in_len)
		memcpy(region, r->in, r->in_len);
	got = enter(sb, r, sb->client, sb->client + (uint32_t)out_at, &written);
	if (got == SVC_EFAULT)
		return got;
	if (written > r->out_len)
		written = r->out_len;
	if (written)
		memcpy(r->out, region + out_at, written);
	r->out_len = written;
	return got;
}

/* the offset of a caller's block that must lie inside the client region, or 0 */
static uint32_t inside(const struct sandbox *sb, const uint8_t *p, uint64_t len)
{
	const uint8_t *lo = sb->mem->data + sb->client;

	if (len == 0 && !p)
		return 0;
	if (p < lo || len > sb->client_len || (uint64_t)(p - lo) > sb->client_len - len)
		return 0;
	return sb->client + (uint32_t)(p - lo);
}

/* The data shared: the caller's blocks are already in linear memory, and
 * only their offsets cross; a block elsewhere is refused. */
int64_t sfi_call_shared(void *sandbox, struct svc_req *r)
{
	struct sandbox *sb = sandbox;
	uint32_t in = inside(sb, r->in, r->in_len), out = inside(sb, r->out, r->out_len);
	uint64_t written = 0;
	int64_t got;

	if ((r->in_len && !in) || (r->out_len && !out))
		return SVC_EINVAL;
	got = enter(sb, r, in, out, &written);
	if (got != SVC_EFAULT)
		r->out_len = written;
	return got;
}
