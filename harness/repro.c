/*
 * Cases run on their own (repro.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "repro.h"

/* requests outstanding at once: below every pipe's capacity, as in the
 * campaign (campaign.c) */
#define WINDOW 256

/* bytes as a JSON string, one code point per byte (\u00XX for any byte
 * outside printable ASCII), so that any bytes a case wrote survive the
 * trip; src/trebuchet/run/repro.py turns them back into bytes */
static void print_bytes(const char *p, size_t n, FILE *out)
{
	size_t i;

	fputc('"', out);
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c >= 0x20 && c < 0x7f)
			fputc(c, out);
		else
			fprintf(out, "\\u%04x", c);
	}
	fputc('"', out);
}

/* The return value as a JSON number: a floating one in full (%.17g reads
 * back the same double); NaN and the infinities, which JSON has no number
 * for, as the texts "NaN", "Infinity" and "-Infinity" (store.c keeps NaN
 * so, and export writes all three alike). */
static void print_ret(const struct tb_function *fn, const struct tb_result *r, FILE *out)
{
	double d = tb_bits_double(r->ret);

	if (fn->unsigned_return && r->outcome == TB_PASS)
		fprintf(out, "%llu", (unsigned long long)r->ret);
	else if (!fn->floating_return || r->outcome != TB_PASS)
		fprintf(out, "%lld", (long long)r->ret);
	else if (isnan(d))
		fputs("\"NaN\"", out);
	else if (isinf(d))
		fputs(d < 0 ? "\"-Infinity\"" : "\"Infinity\"", out);
	else
		fprintf(out, "%.17g", d);
}

static void print_result(const struct tb_target *t, const struct tb_result *r,
			 enum tb_isolation sandbox, FILE *out)
{
	const struct tb_planned_function *pf = &t->functions[r->fn];
	int values[TB_MAX_PARAMS], i;

	tb_case_decode(r->case_index, pf->counts, pf->nparams, values);
	fprintf(out, "{\"function\": \"%s\", \"case\": %llu, \"values\": [", pf->fn->name,
		(unsigned long long)r->case_index);
	for (i = 0; i < pf->nparams; i++)
		fprintf(out, "%s\"%s:%s\"", i ? ", " : "", pf->fn->params[i],
			pf->lists[i]->values[values[i]]->name);
	fprintf(out, "], \"outcome\": \"%s\", \"signal\": %d, \"exit_status\": %d, \"ret\": ",
		tb_outcome_names[r->outcome], r->signal, r->exit_status);
	print_ret(pf->fn, r, out);
	fprintf(out, ", \"errno\": %d, \"error_reported\": %d, \"setup_param\": %d, "
		"\"cleanup_failed\": %d, \"duration_us\": %lld, \"stderr\": ",
		r->err, r->error_reported, r->setup_param, r->cleanup_failed,
		(long long)r->duration_us);
	print_bytes(r->stderr_tail, r->stderr_len, out);
	fprintf(out, ", \"setup_errno\": %d, \"setup_reason\": ", r->setup_errno);
	print_bytes(r->setup_reason, r->reason_len, out);
	/* where it ended: the site's frames, one per line (src/trebuchet/run/repro.py
	 * symbolizes them); "" when it left none */
	fputs(", \"frames\": ", out);
	print_bytes(r->site.frames, r->site_len ? r->site.frames_len : 0, out);
	/* and what else the store's crash_sites row keeps, which tells a stack
	 * overflow (src/trebuchet/findings/signature.py, kind_of); null: none */
	if (r->site_len) {
		fprintf(out, ", \"site\": {\"signal\": %d, \"code\": %d, \"fault_addr\": ",
			r->site.signal, r->site.code);
		if (r->site.has_fault_addr)
			fprintf(out, "%llu", (unsigned long long)r->site.fault_addr);
		else
			fputs("null", out);
		fprintf(out, ", \"sp\": %llu, \"stack_depth\": ", (unsigned long long)r->site.sp);
		if (r->site.stack_depth >= 0)
			fprintf(out, "%lld}", (long long)r->site.stack_depth);
		else
			fputs("null}", out);
	} else {
		fputs(", \"site\": null", out);
	}
	/* a case the watchdog stopped at first: its second look's CPU time */
	if (r->second_look)
		fprintf(out, ", \"second_look_cpu_us\": %lld", (long long)r->cpu_us);
	else
		fputs(", \"second_look_cpu_us\": null", out);
	/* the level the case ran at, and its test process: a run under a tool
	 * (memcheck) says it, and finds the tool's report of the process */
	fprintf(out, ", \"sandbox\": \"%s\", \"pid\": %d}\n", tb_isolation_name(sandbox),
		r->pid);
}

/* The case of r, stopped by the watchdog, run again alone (forkserver.h,
 * TB_SECOND_LOOK), as the campaign does: its result replaces r. */
static int look_again(struct tb_server_pool *pool, struct tb_result *r)
{
	struct tb_request req = { .fn = r->fn, .tag = r->tag, .case_index = r->case_index,
				  .second_look = 1 };
	int k;

	if (tb_pool_send(pool, &req, 1))
		return -1;
	while ((k = tb_pool_receive(pool, r, 1, -1)) == 0)
		;
	return k < 0 ? -1 : 0;
}

int tb_repro(const struct tb_target *t, struct tb_server_pool *pool,
	     const struct tb_repro_case *cases, size_t n, int second_look, int streamed,
	     FILE *out)
{
	/* results arrive in any order; kept by position to print in order */
	struct tb_result *results = calloc(n ? n : 1, sizeof(*results));
	struct tb_result got[64];
	size_t sent = 0, received = 0;
	int k, rc = -1;

	if (!results)
		return -1;
	while (received < n) {
		while (sent < n && tb_pool_outstanding(pool) < WINDOW) {
			/* the tag carries the case's position */
			struct tb_request req = { .fn = (uint32_t)cases[sent].fn,
						  .tag = (uint32_t)sent,
						  .case_index = cases[sent].index };

			if (tb_pool_send(pool, &req, 1))
				goto out;
			sent++;
		}
		k = tb_pool_receive(pool, got, 64, -1);
		if (k < 0)
			goto out;
		for (int i = 0; i < k; i++) {
			results[got[i].tag] = got[i];
			/* streamed: out as soon as it is final, its test process gone */
			if (streamed && !(second_look && tb_wants_second_look(&got[i]))) {
				print_result(t, &got[i], pool->isolation, out);
				fflush(out);
			}
		}
		received += (size_t)k;
	}
	for (received = 0; received < n; received++) {
		int again = second_look && tb_wants_second_look(&results[received]);

		if (again && look_again(pool, &results[received]))
			goto out;
		if (again && streamed) {
			print_result(t, &results[received], pool->isolation, out);
			fflush(out);
		}
	}
	for (received = 0; !streamed && received < n; received++)
		print_result(t, &results[received], pool->isolation, out);
	rc = 0;
out:
	free(results);
	return rc;
}

int tb_repro_read_cases(const char *path, const struct tb_target *t,
			struct tb_repro_case **cases, size_t *n)
{
	FILE *f = fopen(path, "r");
	char line[512], name[256];
	size_t cap = 64, lineno = 0;
	unsigned long long index;
	int fn;

	*n = 0;
	*cases = malloc(cap * sizeof(**cases));
	if (!f || !*cases) {
		fprintf(stderr, "trebuchet-exec: %s: cannot read the cases\n", path);
		goto fail;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (sscanf(line, "%255s %llu", name, &index) != 2 ||
		    (fn = tb_target_function(t, name)) < 0 || index >= t->functions[fn].total) {
			fprintf(stderr, "trebuchet-exec: %s:%zu: not a case of %s: %s", path,
				lineno, t->plugin->target, line);
			goto fail;
		}
		if (*n == cap) {
			struct tb_repro_case *more = realloc(*cases, (cap *= 2) * sizeof(**cases));

			if (!more)
				goto fail;
			*cases = more;
		}
		(*cases)[(*n)++] = (struct tb_repro_case){ .fn = fn, .index = index };
	}
	fclose(f);
	return 0;
fail:
	if (f)
		fclose(f);
	free(*cases);
	*cases = NULL;
	return -1;
}
