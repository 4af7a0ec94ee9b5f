/*
 * Datatypes of the libsodium survey target (libsodium.yaml), each from what
 * doc.libsodium.org and the headers describe:
 *
 *   message            a message and its length (const unsigned char *, unsigned long long)
 *   in_bytes           the same with a size_t length (utils.h's helpers)
 *   out_bytes          a writable region and its size (unsigned char *, size_t)
 *   out_text           the same as char * (bin2hex, bin2base64)
 *   encoded_text       hexadecimal or Base64 text and its length (const char *, size_t)
 *   secretbox_ct       a ciphertext and its length, authentic and not
 *   hash_len           size's values and crypto_generichash_BYTES_MIN/BYTES/BYTES_MAX
 *   hash_key           a crypto_generichash key and its length, NULL/0 included
 *   generichash_state  pointer's values, then states init, keyed, updated, finalized
 *   sodium_block       pointer's values, then regions from sodium_malloc()
 *   pwhash_str         string's values, then crypto_pwhash_str() output
 *   password           a password and its length (const char *, unsigned long long)
 *   b64_variant        int's values and the four sodium_base64_VARIANT_*
 *
 * The documentation asks sodium_init() before any other call (doc.libsodium.org,
 * "Usage"): the library is initialized when this file is loaded, and again by
 * every setup that calls it, so a reproducer that copies this file does too.
 */
#include <sodium.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "datatype.h"

static int init(void)
{
	return sodium_init() < 0 ? tb_setup_fail("sodium_init() failed") : 0;
}

__attribute__((constructor)) static void init_at_load(void)
{
	(void)sodium_init();
}

/* n bytes copied to the end of a guarded block: one byte more is SIGSEGV */
static void *guarded_copy(const void *s, size_t n)
{
	void *p = tb_guarded_block(n);

	if (p && n)
		memcpy(p, s, n);
	return p;
}

static int pair(union tb_arg *out, const void *s, size_t n, unsigned long long len)
{
	void *p = guarded_copy(s, n);

	if (!p)
		return tb_setup_fail("no guarded block of %zu bytes", n);
	out[0].ptr = p;
	out[1].u = len;
	return 0;
}

static int null_pair(union tb_arg *out, unsigned long long len)
{
	out[0].ptr = NULL;
	out[1].u = len;
	return 0;
}

/* ---- message, in_bytes: bytes to read and their length ---- */

static unsigned char kib[1024];

static int setup_msg_empty(union tb_arg *out) { return pair(out, "", 0, 0); }
static int setup_msg_hello(union tb_arg *out) { return pair(out, "hello", 5, 5); }
static int setup_msg_kib(union tb_arg *out) { tb_garbage_fill(kib, sizeof kib); return pair(out, kib, sizeof kib, sizeof kib); }
static int setup_msg_null_zero(union tb_arg *out) { return null_pair(out, 0); }
static int setup_msg_null_len(union tb_arg *out) { return null_pair(out, 16); }
static int setup_msg_past_end(union tb_arg *out) { return pair(out, "hello", 5, 6); }
static int setup_msg_huge(union tb_arg *out) { return pair(out, "hello", 5, SIZE_MAX); }

static const struct tb_value message_values[] = {
	{ .name = "EMPTY", .setup = setup_msg_empty, .desc = "0 bytes before a guard page, length 0" },
	{ .name = "HELLO", .setup = setup_msg_hello, .desc = "\"hello\" before a guard page, length 5" },
	{ .name = "KIB", .setup = setup_msg_kib, .desc = "1024 random bytes before a guard page, length 1024" },
	{ .name = "NULL_ZERO", .setup = setup_msg_null_zero, .desc = "NULL, length 0" },
	{ .name = "NULL_LEN", .setup = setup_msg_null_len, .desc = "NULL, length 16" },
	{ .name = "PAST_END", .setup = setup_msg_past_end,
	  .desc = "\"hello\", length 6: one byte into the guard page" },
	{ .name = "HUGE", .setup = setup_msg_huge, .desc = "\"hello\", length SIZE_MAX" },
	{ 0 },
};

const struct tb_datatype tb_type_message = {
	.name = "message",
	.ctype = "const unsigned char *, unsigned long long",
	.span = 2,
	.values = message_values,
};

const struct tb_datatype tb_type_in_bytes = {
	.name = "in_bytes",
	.ctype = "const unsigned char *, size_t",
	.span = 2,
	.values = message_values,
};

/* ---- out_bytes, out_text: room to write and its size ---- */

static int room(union tb_arg *out, size_t n, size_t len)
{
	void *p = tb_guarded_block(n);

	if (!p)
		return tb_setup_fail("no guarded block of %zu bytes", n);
	out[0].ptr = p;
	out[1].u = len;
	return 0;
}

static int setup_room_page(union tb_arg *out) { return room(out, 4096, 4096); }
static int setup_room_small(union tb_arg *out) { return room(out, 4, 4); }
static int setup_room_zero(union tb_arg *out) { return room(out, 0, 0); }
static int setup_room_null_zero(union tb_arg *out) { return null_pair(out, 0); }
static int setup_room_past_end(union tb_arg *out) { return room(out, 16, 17); }
static int setup_room_huge(union tb_arg *out) { return room(out, 16, SIZE_MAX); }

static int setup_room_read_only(union tb_arg *out)
{
	void *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return tb_setup_fail("mmap failed");
	out[0].ptr = p;
	out[1].u = 4096;
	return 0;
}

static const struct tb_value room_values[] = {
	{ .name = "PAGE_ROOM", .setup = setup_room_page, .desc = "4096 writable bytes before a guard page, size 4096" },
	{ .name = "SMALL_ROOM", .setup = setup_room_small, .desc = "4 writable bytes before a guard page, size 4" },
	{ .name = "NO_ROOM", .setup = setup_room_zero, .desc = "0 bytes before a guard page, size 0" },
	{ .name = "NULL_ZERO", .setup = setup_room_null_zero, .desc = "NULL, size 0" },
	{ .name = "PAST_END", .setup = setup_room_past_end,
	  .desc = "16 bytes, size 17: one byte into the guard page" },
	{ .name = "HUGE", .setup = setup_room_huge, .desc = "16 bytes, size SIZE_MAX" },
	{ .name = "READ_ONLY_ROOM", .setup = setup_room_read_only, .desc = "a read-only page, size 4096" },
	{ 0 },
};

const struct tb_datatype tb_type_out_bytes = {
	.name = "out_bytes",
	.ctype = "unsigned char *, size_t",
	.span = 2,
	.values = room_values,
};

const struct tb_datatype tb_type_out_text = {
	.name = "out_text",
	.ctype = "char *, size_t",
	.span = 2,
	.values = room_values,
};

/* ---- encoded_text: hexadecimal or Base64 text, not NUL-terminated ---- */

static int text(union tb_arg *out, const char *s)
{
	return pair(out, s, strlen(s), strlen(s));
}

static int setup_hex(union tb_arg *out) { return text(out, "0123456789abcdefABCDEF"); }
static int setup_hex_colons(union tb_arg *out) { return text(out, "01:23:45:67"); }
static int setup_hex_odd(union tb_arg *out) { return text(out, "abc"); }
static int setup_base64(union tb_arg *out) { return text(out, "aGVsbG8sIHdvcmxkIQ=="); }
static int setup_base64_url(union tb_arg *out) { return text(out, "-_-_aGVsbG8"); }
static int setup_not_encoded(union tb_arg *out) { return text(out, "$%^ not encoded"); }
static int setup_text_empty(union tb_arg *out) { return text(out, ""); }
static int setup_text_past_end(union tb_arg *out) { return pair(out, "abcd", 4, 5); }
static int setup_text_huge(union tb_arg *out) { return pair(out, "abcd", 4, SIZE_MAX); }

static const struct tb_value encoded_values[] = {
	{ .name = "HEX", .setup = setup_hex, .desc = "\"0123456789abcdefABCDEF\", its length" },
	{ .name = "HEX_COLONS", .setup = setup_hex_colons, .desc = "\"01:23:45:67\", its length" },
	{ .name = "HEX_ODD", .setup = setup_hex_odd, .desc = "\"abc\": an odd number of digits" },
	{ .name = "BASE64", .setup = setup_base64, .desc = "\"aGVsbG8sIHdvcmxkIQ==\" (padded, original alphabet)" },
	{ .name = "BASE64_URLSAFE", .setup = setup_base64_url, .desc = "\"-_-_aGVsbG8\" (URL-safe alphabet, no padding)" },
	{ .name = "NOT_ENCODED", .setup = setup_not_encoded, .desc = "\"$%^ not encoded\"" },
	{ .name = "EMPTY", .setup = setup_text_empty, .desc = "0 bytes before a guard page, length 0" },
	{ .name = "NULL_ZERO", .setup = setup_msg_null_zero, .desc = "NULL, length 0" },
	{ .name = "PAST_END", .setup = setup_text_past_end, .desc = "\"abcd\", length 5: one byte into the guard page" },
	{ .name = "HUGE", .setup = setup_text_huge, .desc = "\"abcd\", length SIZE_MAX" },
	{ 0 },
};

const struct tb_datatype tb_type_encoded_text = {
	.name = "encoded_text",
	.ctype = "const char *, size_t",
	.span = 2,
	.values = encoded_values,
};

/* ---- secretbox_ct: crypto_secretbox_easy() output under the all-zero key
 * and nonce (the zero bytes of buffer:VALID), and what is not ---- */

static int sealed(union tb_arg *out, const char *m, size_t mlen, int flip, size_t keep, unsigned long long len)
{
	static const unsigned char zero[crypto_secretbox_KEYBYTES > crypto_secretbox_NONCEBYTES ?
					crypto_secretbox_KEYBYTES : crypto_secretbox_NONCEBYTES];
	unsigned char c[crypto_secretbox_MACBYTES + 16];

	if (init() || crypto_secretbox_easy(c, (const unsigned char *)m, mlen, zero, zero))
		return tb_setup_fail("crypto_secretbox_easy failed");
	if (flip)
		c[crypto_secretbox_MACBYTES + mlen - 1] ^= 1;
	return pair(out, c, keep, len);
}

#define SEALED(m, flip) sealed(out, m, sizeof m - 1, flip, crypto_secretbox_MACBYTES + sizeof m - 1, \
			       crypto_secretbox_MACBYTES + sizeof m - 1)

static int setup_ct_authentic(union tb_arg *out) { return SEALED("hello", 0); }
static int setup_ct_forged(union tb_arg *out) { return SEALED("hello", 1); }
static int setup_ct_mac_only(union tb_arg *out) { return SEALED("", 0); }
static int setup_ct_truncated(union tb_arg *out)
{
	return sealed(out, "hello", 5, 0, crypto_secretbox_MACBYTES - 1, crypto_secretbox_MACBYTES - 1);
}
static int setup_ct_past_end(union tb_arg *out)
{
	return sealed(out, "hello", 5, 0, crypto_secretbox_MACBYTES + 5, crypto_secretbox_MACBYTES + 6);
}
static int setup_ct_huge(union tb_arg *out)
{
	return sealed(out, "hello", 5, 0, crypto_secretbox_MACBYTES + 5, SIZE_MAX);
}

static const struct tb_value ciphertext_values[] = {
	{ .name = "AUTHENTIC", .setup = setup_ct_authentic,
	  .desc = "crypto_secretbox_easy(\"hello\") under the all-zero key and nonce, its 21 bytes" },
	{ .name = "FORGED", .setup = setup_ct_forged, .desc = "AUTHENTIC with its last bit flipped" },
	{ .name = "MAC_ONLY", .setup = setup_ct_mac_only,
	  .desc = "crypto_secretbox_easy of the empty message: 16 bytes, authentic" },
	{ .name = "TRUNCATED", .setup = setup_ct_truncated, .desc = "AUTHENTIC's first 15 bytes: shorter than a MAC" },
	{ .name = "EMPTY", .setup = setup_msg_empty, .desc = "0 bytes, length 0" },
	{ .name = "NULL_ZERO", .setup = setup_msg_null_zero, .desc = "NULL, length 0" },
	{ .name = "PAST_END", .setup = setup_ct_past_end, .desc = "AUTHENTIC, length 22: one byte into the guard page" },
	{ .name = "HUGE", .setup = setup_ct_huge, .desc = "AUTHENTIC, length SIZE_MAX" },
	{ 0 },
};

const struct tb_datatype tb_type_secretbox_ct = {
	.name = "secretbox_ct",
	.ctype = "const unsigned char *, unsigned long long",
	.span = 2,
	.values = ciphertext_values,
};

/* ---- hash_len: the output lengths crypto_generichash documents ---- */

static const struct tb_value hash_len_values[] = {
	{ .name = "BYTES_MIN", .constant.u = crypto_generichash_BYTES_MIN, .desc = "crypto_generichash_BYTES_MIN (16)" },
	{ .name = "BYTES", .constant.u = crypto_generichash_BYTES, .desc = "crypto_generichash_BYTES (32)" },
	{ .name = "BYTES_MAX", .constant.u = crypto_generichash_BYTES_MAX, .desc = "crypto_generichash_BYTES_MAX (64)" },
	{ .name = "BYTES_MAX_PLUS_1", .constant.u = crypto_generichash_BYTES_MAX + 1, .desc = "65, one past the largest" },
	{ 0 },
};

const struct tb_datatype tb_type_hash_len = {
	.name = "hash_len",
	.parent = &tb_type_size,
	.ctype = "size_t",
	.values = hash_len_values,
};

/* ---- hash_key: a key and its length ---- */

static int key(union tb_arg *out, size_t n, size_t len)
{
	unsigned char k[128];

	tb_garbage_fill(k, sizeof k);
	return pair(out, k, n, len);
}

static int setup_key_none(union tb_arg *out) { return null_pair(out, 0); }
static int setup_key_min(union tb_arg *out) { return key(out, crypto_generichash_KEYBYTES_MIN, crypto_generichash_KEYBYTES_MIN); }
static int setup_key_default(union tb_arg *out) { return key(out, crypto_generichash_KEYBYTES, crypto_generichash_KEYBYTES); }
static int setup_key_max(union tb_arg *out) { return key(out, crypto_generichash_KEYBYTES_MAX, crypto_generichash_KEYBYTES_MAX); }
static int setup_key_too_long(union tb_arg *out) { return key(out, crypto_generichash_KEYBYTES_MAX + 1, crypto_generichash_KEYBYTES_MAX + 1); }
static int setup_key_null_len(union tb_arg *out) { return null_pair(out, crypto_generichash_KEYBYTES); }
static int setup_key_past_end(union tb_arg *out) { return key(out, 16, 32); }

static const struct tb_value hash_key_values[] = {
	{ .name = "NO_KEY", .setup = setup_key_none, .desc = "NULL, length 0: no key" },
	{ .name = "KEY_MIN", .setup = setup_key_min, .desc = "crypto_generichash_KEYBYTES_MIN (16) random bytes" },
	{ .name = "KEY", .setup = setup_key_default, .desc = "crypto_generichash_KEYBYTES (32) random bytes" },
	{ .name = "KEY_MAX", .setup = setup_key_max, .desc = "crypto_generichash_KEYBYTES_MAX (64) random bytes" },
	{ .name = "TOO_LONG", .setup = setup_key_too_long, .desc = "65 bytes, length 65: past KEYBYTES_MAX" },
	{ .name = "NULL_LEN", .setup = setup_key_null_len, .desc = "NULL, length 32" },
	{ .name = "PAST_END", .setup = setup_key_past_end, .desc = "16 bytes, length 32: into the guard page" },
	{ 0 },
};

const struct tb_datatype tb_type_hash_key = {
	.name = "hash_key",
	.ctype = "const unsigned char *, size_t",
	.span = 2,
	.values = hash_key_values,
};

/* ---- generichash_state: a caller's state in each documented step ---- */

static crypto_generichash_state *state(const unsigned char *k, size_t klen)
{
	/* a page: the state's 64-byte alignment (crypto_generichash_blake2b.h:23) */
	crypto_generichash_state *s = tb_guarded_block(4096);

	if (init() || !s || crypto_generichash_init(s, k, klen, crypto_generichash_BYTES))
		return NULL;
	return s;
}

static int put_state(union tb_arg *out, crypto_generichash_state *s)
{
	out->ptr = s;
	return s ? 0 : tb_setup_fail("crypto_generichash_init failed");
}

static int setup_st_init(union tb_arg *out) { return put_state(out, state(NULL, 0)); }

static int setup_st_keyed(union tb_arg *out)
{
	static const unsigned char k[crypto_generichash_KEYBYTES] = "a key of thirty-two bytes, here";

	return put_state(out, state(k, sizeof k));
}

static int setup_st_updated(union tb_arg *out)
{
	crypto_generichash_state *s = state(NULL, 0);

	if (s && crypto_generichash_update(s, (const unsigned char *)"hello", 5))
		return tb_setup_fail("crypto_generichash_update failed");
	return put_state(out, s);
}

static int setup_st_finalized(union tb_arg *out)
{
	unsigned char h[crypto_generichash_BYTES];
	crypto_generichash_state *s = state(NULL, 0);

	if (s && crypto_generichash_final(s, h, sizeof h))
		return tb_setup_fail("crypto_generichash_final failed");
	return put_state(out, s);
}

static int setup_garbage(union tb_arg *out)
{
	return (out->ptr = tb_garbage_block(4096)) ? 0 : tb_setup_fail("no guarded block");
}

static const struct tb_value state_values[] = {
	{ .name = "INITIALIZED", .setup = setup_st_init, .desc = "crypto_generichash_init(s, NULL, 0, BYTES)" },
	{ .name = "KEYED", .setup = setup_st_keyed, .desc = "crypto_generichash_init with a 32-byte key" },
	{ .name = "UPDATED", .setup = setup_st_updated, .desc = "INITIALIZED, then updated with \"hello\"" },
	{ .name = "FINALIZED", .setup = setup_st_finalized, .desc = "INITIALIZED, then crypto_generichash_final" },
	{ .name = "GARBAGE", .setup = setup_garbage, .desc = "a page of random bytes", .misuse = 1 },
	{ 0 },
};

const struct tb_datatype tb_type_generichash_state = {
	.name = "generichash_state",
	.parent = &tb_type_pointer,
	/* zero or random bytes are no state; VALID + 1 is not 64-byte aligned */
	.misuse = (const char *const[]){ "READ_ONLY", "VALID", "MISALIGNED", NULL },
	.ctype = "crypto_generichash_state *",
	.values = state_values,
};

/* ---- sodium_block: what sodium_malloc() gives ---- */

static int block(union tb_arg *out, size_t size, int (*protect)(void *))
{
	void *p;

	if (init() || !(p = sodium_malloc(size)))
		return tb_setup_fail("sodium_malloc(%zu) failed", size);
	if (protect && protect(p))
		return tb_setup_fail("sodium_mprotect failed");
	out->ptr = p;
	return 0;
}

static int setup_blk(union tb_arg *out) { return block(out, 64, NULL); }
static int setup_blk_zero(union tb_arg *out) { return block(out, 0, NULL); }
static int setup_blk_readonly(union tb_arg *out) { return block(out, 64, sodium_mprotect_readonly); }
static int setup_blk_noaccess(union tb_arg *out) { return block(out, 64, sodium_mprotect_noaccess); }

static int setup_blk_released(union tb_arg *out)
{
	if (block(out, 64, NULL))
		return -1;
	sodium_free(out->ptr);
	out->u = (uintptr_t)out->ptr;
	return 0;
}

static const struct tb_value block_values[] = {
	{ .name = "ALLOCATED", .setup = setup_blk, .desc = "sodium_malloc(64)" },
	{ .name = "ALLOCATED_ZERO", .setup = setup_blk_zero, .desc = "sodium_malloc(0)" },
	{ .name = "PROTECTED_READONLY", .setup = setup_blk_readonly, .desc = "sodium_malloc(64), then sodium_mprotect_readonly" },
	{ .name = "PROTECTED_NOACCESS", .setup = setup_blk_noaccess, .desc = "sodium_malloc(64), then sodium_mprotect_noaccess" },
	{ .name = "RELEASED", .setup = setup_blk_released, .desc = "sodium_malloc(64), then sodium_free", .misuse = 1 },
	{ 0 },
};

const struct tb_datatype tb_type_sodium_block = {
	.name = "sodium_block",
	.parent = &tb_type_pointer,
	/* memory sodium_malloc() did not give */
	.misuse = (const char *const[]){ "READ_ONLY", "VALID", "MISALIGNED", NULL },
	.ctype = "void *",
	.values = block_values,
};

/* ---- pwhash_str: crypto_pwhash_str() output, for "password" ----
 * made once with OPSLIMIT_MIN and MEMLIMIT_MIN (8 KiB, so each verification
 * is quick) and kept as text: the salt is random, a value must not be */

#define ARGON2ID "$argon2id$v=19$m=8,t=1,p=1$lM1FqHhwnLVKAYU27Xs9Ng$KwwkZJogFZY9+3wUYWb6E4bw5dviuAwT76xH4yhuWsE"
#define ARGON2I "$argon2i$v=19$m=8,t=3,p=1$a66vwuio+aGfmBoqtpWcfA$Aw1WTkHVlnHX4dCHFAvu/SSj9VwTdIDfJSFG5EBdeWk"

/* in a crypto_pwhash_STRBYTES buffer, as crypto_pwhash_str writes it */
static int hash_string(union tb_arg *out, const char *s, size_t n)
{
	char *p = tb_guarded_block(crypto_pwhash_STRBYTES);

	if (init() || !p)
		return tb_setup_fail("no guarded block");
	memcpy(p, s, n);
	out->ptr = p;
	return 0;
}

static int setup_pw_argon2id(union tb_arg *out) { return hash_string(out, ARGON2ID, sizeof ARGON2ID); }
static int setup_pw_argon2i(union tb_arg *out) { return hash_string(out, ARGON2I, sizeof ARGON2I); }
static int setup_pw_truncated(union tb_arg *out) { return hash_string(out, ARGON2ID, 40); }

static const struct tb_value pwhash_values[] = {
	{ .name = "ARGON2ID_HASH", .setup = setup_pw_argon2id,
	  .desc = "crypto_pwhash_str(\"password\", OPSLIMIT_MIN, MEMLIMIT_MIN): an Argon2id string" },
	{ .name = "ARGON2I_HASH", .setup = setup_pw_argon2i, .desc = "the same with the Argon2i algorithm" },
	{ .name = "TRUNCATED_HASH", .setup = setup_pw_truncated, .desc = "ARGON2ID_HASH's first 40 characters" },
	{ 0 },
};

const struct tb_datatype tb_type_pwhash_str = {
	.name = "pwhash_str",
	.parent = &tb_type_string,
	.ctype = "const char *",
	.values = pwhash_values,
};

/* ---- password ---- */

static int setup_pass_right(union tb_arg *out) { return pair(out, "password", 8, 8); }
static int setup_pass_wrong(union tb_arg *out) { return pair(out, "passw0rd", 8, 8); }
static int setup_pass_past_end(union tb_arg *out) { return pair(out, "password", 8, 9); }
static int setup_pass_huge(union tb_arg *out) { return pair(out, "password", 8, SIZE_MAX); }

static const struct tb_value password_values[] = {
	{ .name = "RIGHT", .setup = setup_pass_right, .desc = "\"password\", length 8: the hashed one" },
	{ .name = "WRONG", .setup = setup_pass_wrong, .desc = "\"passw0rd\", length 8" },
	{ .name = "EMPTY", .setup = setup_msg_empty, .desc = "0 bytes, length 0" },
	{ .name = "NULL_ZERO", .setup = setup_msg_null_zero, .desc = "NULL, length 0" },
	{ .name = "PAST_END", .setup = setup_pass_past_end, .desc = "\"password\", length 9: into the guard page" },
	{ .name = "HUGE", .setup = setup_pass_huge, .desc = "\"password\", length SIZE_MAX" },
	{ 0 },
};

const struct tb_datatype tb_type_password = {
	.name = "password",
	.ctype = "const char *, unsigned long long",
	.span = 2,
	.values = password_values,
};

/* ---- b64_variant ---- */

static const struct tb_value variant_values[] = {
	{ .name = "ORIGINAL", .constant.i = sodium_base64_VARIANT_ORIGINAL, .desc = "sodium_base64_VARIANT_ORIGINAL (1)" },
	{ .name = "ORIGINAL_NO_PADDING", .constant.i = sodium_base64_VARIANT_ORIGINAL_NO_PADDING,
	  .desc = "sodium_base64_VARIANT_ORIGINAL_NO_PADDING (3)" },
	{ .name = "URLSAFE", .constant.i = sodium_base64_VARIANT_URLSAFE, .desc = "sodium_base64_VARIANT_URLSAFE (5)" },
	{ .name = "URLSAFE_NO_PADDING", .constant.i = sodium_base64_VARIANT_URLSAFE_NO_PADDING,
	  .desc = "sodium_base64_VARIANT_URLSAFE_NO_PADDING (7)" },
	{ 0 },
};

const struct tb_datatype tb_type_b64_variant = {
	.name = "b64_variant",
	.parent = &tb_type_int,
	/* ONE is VARIANT_ORIGINAL: one value under one name */
	.skip = (const char *const[]){ "ONE", NULL },
	.ctype = "int",
	.values = variant_values,
};
