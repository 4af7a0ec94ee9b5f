/*
 * The services, written from TR-96-20's definitions of its benchmarks and
 * from RFC 1321 for md5: nullc touches every page of the block it is handed;
 * md5 hashes a message handed over in pieces; nsieve is the classic sieve
 * of the odd numbers, one call per grain of candidates searched; tdbm is an
 * in-memory database on Larson's linear (dynamic) hashing, one call per
 * insert, fetch or delete.  Each keeps its state at the start of the arena
 * the caller hands in, behind a magic number, and imports nothing: the
 * loops below are written out so that the compiler's memset and memcpy
 * stand-ins are not needed (the Makefile also forbids it to make them).
 */
#include "services.h"

#define MD5_MAGIC   0x6d643573746174ull    /* "md5stat" */
#define SIEVE_MAGIC 0x73696576657374ull    /* "sievest" */
#define TDBM_MAGIC  0x7464626d737461ull    /* "tdbmsta" */

/* ---- md5 (RFC 1321) ---- */

struct md5_state {
	uint64_t magic;
	uint64_t bytes;          /* message length so far */
	uint32_t h[4];
	uint32_t held;           /* bytes waiting in block[] */
	uint32_t pad_;
	uint8_t block[64];
};

/* T[i] = floor(2^32 * |sin(i + 1)|), RFC 1321 section 3.4 */
static const uint32_t md5_t[64] = {
	0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee,
	0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
	0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be,
	0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
	0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa,
	0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
	0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed,
	0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
	0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c,
	0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
	0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05,
	0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
	0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039,
	0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
	0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1,
	0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

/* the left rotations of each round's four steps */
static const uint8_t md5_s[16] = { 7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21 };

static uint32_t rotl(uint32_t x, unsigned n)
{
	return (x << n) | (x >> (32 - n));
}

static void md5_block(uint32_t h[4], const uint8_t *p)
{
	uint32_t m[16], a = h[0], b = h[1], c = h[2], d = h[3];

	for (int i = 0; i < 16; i++)
		m[i] = (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 |
		       (uint32_t)p[4 * i + 2] << 16 | (uint32_t)p[4 * i + 3] << 24;
	for (int i = 0; i < 64; i++) {
		uint32_t f, t;
		int g;

		switch (i >> 4) {
		case 0: f = (b & c) | (~b & d); g = i; break;
		case 1: f = (b & d) | (c & ~d); g = (5 * i + 1) & 15; break;
		case 2: f = b ^ c ^ d; g = (3 * i + 5) & 15; break;
		default: f = c ^ (b | ~d); g = (7 * i) & 15; break;
		}
		t = d;
		d = c;
		c = b;
		b = b + rotl(a + f + md5_t[i] + m[g], md5_s[(i >> 4) * 4 + (i & 3)]);
		a = t;
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
}

static void md5_absorb(struct md5_state *st, const uint8_t *p, uint64_t n)
{
	st->bytes += n;
	while (n > 0) {
		if (st->held == 0 && n >= 64) {
			md5_block(st->h, p);
			p += 64;
			n -= 64;
			continue;
		}
		st->block[st->held++] = *p++;
		n--;
		if (st->held == 64) {
			md5_block(st->h, st->block);
			st->held = 0;
		}
	}
}

static void md5_finish(struct md5_state *st, uint8_t digest[16])
{
	uint64_t bits = st->bytes * 8;
	uint8_t pad = 0x80;

	md5_absorb(st, &pad, 1);
	pad = 0;
	while (st->held != 56)
		md5_absorb(st, &pad, 1);
	for (int i = 0; i < 8; i++) {
		uint8_t byte = (uint8_t)(bits >> (8 * i));

		md5_absorb(st, &byte, 1);
	}
	for (int i = 0; i < 16; i++)
		digest[i] = (uint8_t)(st->h[i / 4] >> (8 * (i % 4)));
}

static int64_t md5_call(struct md5_state *st, struct svc_req *r)
{
	if (r->flags & SVC_FIRST) {
		st->magic = MD5_MAGIC;
		st->bytes = 0;
		st->held = 0;
		st->h[0] = 0x67452301;
		st->h[1] = 0xefcdab89;
		st->h[2] = 0x98badcfe;
		st->h[3] = 0x10325476;
	}
	md5_absorb(st, r->in, r->in_len);
	r->out_len = 0;
	if (r->flags & SVC_LAST) {
		md5_finish(st, r->out);
		r->out_len = 16;
	}
	return 0;
}

/* ---- nsieve: flags[i] stands for the odd number 2i + 3 ---- */

struct sieve_state {
	uint64_t magic;
	uint64_t n;              /* flags: the odd numbers 3..L */
	uint8_t flags[];
};

static uint64_t sieve_flags(uint64_t limit)
{
	return limit < 3 ? 0 : (limit - 1) / 2;
}

static int64_t sieve_call(struct sieve_state *st, struct svc_req *r)
{
	uint64_t lo = r->arg, end, found = 0;

	if (r->flags & SVC_FIRST) {
		st->magic = SIEVE_MAGIC;
		st->n = sieve_flags(r->arg);
		for (uint64_t i = 0; i < st->n; i++)
			st->flags[i] = 1;
		lo = 0;
	}
	end = lo + r->arg2 < st->n ? lo + r->arg2 : st->n;
	for (uint64_t i = lo; i < end; i++) {
		uint64_t prime;

		if (!st->flags[i])
			continue;
		prime = 2 * i + 3;
		for (uint64_t k = i + prime; k < st->n; k += prime)
			st->flags[k] = 0;
		found++;
	}
	r->out_len = 0;
	return (int64_t)found;
}

/* ---- tdbm: linear hashing, records of 64 bytes, a free list ---- */

struct tdbm_rec {
	uint32_t next;           /* record number + 1; 0 ends a chain */
	uint32_t hash;
	uint32_t value;
	uint8_t klen;
	uint8_t key[TDBM_KEY_MAX];
};

struct tdbm_state {
	uint64_t magic;
	uint32_t cap;            /* records */
	uint32_t buckets_cap;    /* a power of two >= cap */
	uint32_t count;
	uint32_t low;            /* the table's size at this level, a power of two */
	uint32_t split;          /* buckets below it are split into low + split */
	uint32_t free_head;
	uint32_t unused;         /* records never handed out start here */
	uint32_t pad_;
};

#define TDBM_FIRST_BUCKETS 16u

static uint32_t *tdbm_buckets(struct tdbm_state *db)
{
	return (uint32_t *)(db + 1);
}

static struct tdbm_rec *tdbm_rec(struct tdbm_state *db, uint32_t ref)
{
	return (struct tdbm_rec *)(tdbm_buckets(db) + db->buckets_cap) + (ref - 1);
}

static uint32_t tdbm_buckets_for(uint64_t cap)
{
	uint32_t b = TDBM_FIRST_BUCKETS;

	while (b < cap)
		b *= 2;
	return b;
}

static uint32_t fnv1a(const uint8_t *p, uint64_t n)
{
	uint32_t h = 2166136261u;

	for (uint64_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

static uint32_t tdbm_addr(const struct tdbm_state *db, uint32_t hash)
{
	uint32_t b = hash & (db->low - 1);

	return b < db->split ? hash & (2 * db->low - 1) : b;
}

/* the link that points at the key's record, or at the 0 ending its chain */
static uint32_t *tdbm_find(struct tdbm_state *db, const uint8_t *key, uint64_t klen, uint32_t hash)
{
	uint32_t *link = &tdbm_buckets(db)[tdbm_addr(db, hash)];

	while (*link) {
		struct tdbm_rec *rec = tdbm_rec(db, *link);

		if (rec->hash == hash && rec->klen == klen) {
			uint64_t i = 0;

			while (i < klen && rec->key[i] == key[i])
				i++;
			if (i == klen)
				return link;
		}
		link = &rec->next;
	}
	return link;
}

static void tdbm_split(struct tdbm_state *db)
{
	uint32_t *b = tdbm_buckets(db), old = db->split, ref = b[old];

	if (db->low + db->split >= db->buckets_cap)
		return;
	b[old] = 0;
	b[old + db->low] = 0;
	while (ref) {
		struct tdbm_rec *rec = tdbm_rec(db, ref);
		uint32_t next = rec->next, to = rec->hash & (2 * db->low - 1);

		rec->next = b[to];
		b[to] = ref;
		ref = next;
	}
	if (++db->split == db->low) {
		db->low *= 2;
		db->split = 0;
	}
}

static int64_t tdbm_reset(struct tdbm_state *db, uint64_t cap)
{
	db->magic = TDBM_MAGIC;
	db->cap = (uint32_t)cap;
	db->buckets_cap = tdbm_buckets_for(cap);
	db->count = 0;
	db->low = TDBM_FIRST_BUCKETS;
	db->split = 0;
	db->free_head = 0;
	db->unused = 1;
	for (uint32_t i = 0; i < TDBM_FIRST_BUCKETS; i++)
		tdbm_buckets(db)[i] = 0;
	return 0;
}

static int64_t tdbm_insert(struct tdbm_state *db, struct svc_req *r)
{
	uint32_t hash = fnv1a(r->in, r->in_len), ref;
	uint32_t *link = tdbm_find(db, r->in, r->in_len, hash);
	struct tdbm_rec *rec;

	if (*link) {
		tdbm_rec(db, *link)->value = (uint32_t)r->arg;
		return 1;
	}
	if (db->free_head) {
		ref = db->free_head;
		db->free_head = tdbm_rec(db, ref)->next;
	} else if (db->unused <= db->cap) {
		ref = db->unused++;
	} else {
		return SVC_ENOSPC;
	}
	rec = tdbm_rec(db, ref);
	rec->hash = hash;
	rec->value = (uint32_t)r->arg;
	rec->klen = (uint8_t)r->in_len;
	for (uint64_t i = 0; i < r->in_len; i++)
		rec->key[i] = r->in[i];
	rec->next = 0;
	*link = ref;
	if (++db->count > 2 * (db->low + db->split))
		tdbm_split(db);
	return 0;
}

static int64_t tdbm_delete(struct tdbm_state *db, struct svc_req *r)
{
	uint32_t *link = tdbm_find(db, r->in, r->in_len, fnv1a(r->in, r->in_len)), ref = *link;

	if (!ref)
		return SVC_ENOENT;
	*link = tdbm_rec(db, ref)->next;
	tdbm_rec(db, ref)->next = db->free_head;
	db->free_head = ref;
	db->count--;
	return 0;
}

/* an order-free checksum of the contents: sum of fnv1a(key) * (value + 1) */
static int64_t tdbm_sum(struct tdbm_state *db, struct svc_req *r)
{
	uint64_t sum = 0;

	for (uint32_t b = 0; b < db->low + db->split; b++)
		for (uint32_t ref = tdbm_buckets(db)[b]; ref; ref = tdbm_rec(db, ref)->next) {
			struct tdbm_rec *rec = tdbm_rec(db, ref);

			sum += (uint64_t)rec->hash * ((uint64_t)rec->value + 1);
		}
	for (int i = 0; i < 8; i++)
		r->out[i] = (uint8_t)(sum >> (8 * i));
	r->out_len = 8;
	return db->count;
}

static int64_t tdbm_call(struct tdbm_state *db, struct svc_req *r)
{
	uint32_t *link;

	if (r->op != SVC_TDBM_SUM)
		r->out_len = 0;
	switch (r->op) {
	case SVC_TDBM_RESET: return tdbm_reset(db, r->arg);
	case SVC_TDBM_INSERT: return tdbm_insert(db, r);
	case SVC_TDBM_DELETE: return tdbm_delete(db, r);
	case SVC_TDBM_SUM: return tdbm_sum(db, r);
	default:
		link = tdbm_find(db, r->in, r->in_len, fnv1a(r->in, r->in_len));
		return *link ? (int64_t)tdbm_rec(db, *link)->value : SVC_ENOENT;
	}
}

/* ---- nullc and the faulty service ---- */

static int64_t nullc_call(struct svc_req *r)
{
	uint64_t pages = 0;

	for (uint64_t off = 0; off < r->in_len; off += 4096, pages++)
		r->out[off] = (uint8_t)(r->in[off] + 1);
	r->out_len = r->in_len;
	return (int64_t)pages;
}

/* Where the faulty service writes: NULL.  In wasm32 address 0 is the
 * sandbox's own memory, where a store is confined but not caught, so the
 * wasm build (protection.mk) writes past the top of the 32-bit space
 * instead, which no linear memory here reaches: a trap. */
#ifndef SVC_FAULT_ADDRESS
#define SVC_FAULT_ADDRESS 0
#endif

static int64_t fault_call(struct svc_req *r)
{
	volatile uint8_t *volatile nowhere = (volatile uint8_t *)(uintptr_t)SVC_FAULT_ADDRESS;

	*nowhere = (uint8_t)r->arg;
	return 0;
}

int64_t svc_call(void *state, uint64_t state_len, struct svc_req *r)
{
	switch (r->op) {
	case SVC_NULLC: return nullc_call(r);
	case SVC_MD5: return md5_call(state, r);
	case SVC_NSIEVE: return sieve_call(state, r);
	case SVC_FAULT: return fault_call(r);
	default: return tdbm_call(state, r);
	}
}

/* ---- the checked entry ---- */

uint64_t svc_state_size(uint32_t op, uint64_t size)
{
	switch (op) {
	case SVC_MD5:
		return sizeof(struct md5_state);
	case SVC_NSIEVE:
		return sizeof(struct sieve_state) + sieve_flags(size);
	case SVC_TDBM_RESET:
		return sizeof(struct tdbm_state) + 4ull * tdbm_buckets_for(size) +
		       size * sizeof(struct tdbm_rec);
	default:
		return sizeof(uint64_t);
	}
}

static int block_ok(const void *p, uint64_t len)
{
	return len == 0 || p != 0;
}

static int magic_ok(const void *state, uint64_t state_len, uint64_t magic)
{
	return state_len >= 2 * sizeof(uint64_t) && *(const uint64_t *)state == magic;
}

/*
 * What a C service can check without a system call: the operation, NULL
 * blocks, lengths against capacities, numbers against their ranges, and
 * that its state was set up for this operation.  Whether a non-NULL pointer
 * is mapped it cannot tell cheaply (Robust SFIO's checks do, at a cost);
 * a bug inside the service (SVC_FAULT) no check at the door can stop.
 */
static int request_ok(void *state, uint64_t state_len, const struct svc_req *r)
{
	const struct sieve_state *sv = state;
	const struct tdbm_state *db = state;

	if (!block_ok(r->in, r->in_len) || !block_ok(r->out, r->out_len))
		return 0;
	switch (r->op) {
	case SVC_NULLC:
		return (r->flags & SVC_INOUT) && r->in == r->out && r->in_len <= r->out_len;
	case SVC_MD5:
		if (state == 0 || state_len < sizeof(struct md5_state))
			return 0;
		if (!(r->flags & SVC_FIRST) && !magic_ok(state, state_len, MD5_MAGIC))
			return 0;
		return !(r->flags & SVC_LAST) || r->out_len >= 16;
	case SVC_NSIEVE:
		if (state == 0)
			return 0;
		if (r->flags & SVC_FIRST)
			return r->arg >= 3 && svc_state_size(SVC_NSIEVE, r->arg) <= state_len;
		return magic_ok(state, state_len, SIEVE_MAGIC) && r->arg <= sv->n && r->arg2 <= sv->n - r->arg;
	case SVC_TDBM_RESET:
		return state != 0 && r->arg >= 1 && r->arg <= 0xffffffffu &&
		       svc_state_size(SVC_TDBM_RESET, r->arg) <= state_len;
	case SVC_TDBM_INSERT:
		if (r->arg > 0x7fffffffu)
			return 0;
		/* fall through */
	case SVC_TDBM_FETCH:
	case SVC_TDBM_DELETE:
		return state != 0 && magic_ok(state, state_len, TDBM_MAGIC) &&
		       r->in_len >= 1 && r->in_len <= TDBM_KEY_MAX;
	case SVC_TDBM_SUM:
		return state != 0 && magic_ok(state, state_len, TDBM_MAGIC) && db->cap > 0 && r->out_len >= 8;
	case SVC_FAULT:
		return 1;
	default:
		return 0;
	}
}

int64_t svc_call_checked(void *state, uint64_t state_len, struct svc_req *r)
{
	if (r == 0 || !request_ok(state, state_len, r))
		return SVC_EINVAL;
	return svc_call(state, state_len, r);
}
