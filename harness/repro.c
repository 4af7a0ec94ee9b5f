/*
 * A single case (repro.h).
 */
#include "repro.h"

int tb_repro(const struct tb_target *t, struct tb_server_pool *pool, int fn, uint64_t index,
	     FILE *out)
{
	const struct tb_planned_function *pf = &t->functions[fn];
	struct tb_request req = { .fn = (uint32_t)fn, .case_index = index };
	struct tb_result r;
	int values[TB_MAX_PARAMS], i, n;

	if (tb_pool_send(pool, &req, 1))
		return -1;
	while ((n = tb_pool_receive(pool, &r, 1, -1)) == 0)
		;
	if (n < 0)
		return -1;
	tb_case_decode(index, pf->counts, pf->nparams, values);
	fprintf(out, "{\"function\": \"%s\", \"case\": %llu, \"values\": [", pf->fn->name,
		(unsigned long long)index);
	for (i = 0; i < pf->nparams; i++)
		fprintf(out, "%s\"%s:%s\"", i ? ", " : "", pf->fn->params[i],
			pf->lists[i]->values[values[i]]->name);
	fprintf(out, "], \"outcome\": \"%s\", \"signal\": %d, \"exit_status\": %d, "
		"\"ret\": %lld, \"errno\": %d, \"error_reported\": %d, \"setup_param\": %d, "
		"\"cleanup_failed\": %d, \"duration_us\": %lld}\n",
		tb_outcome_names[r.outcome], r.signal, r.exit_status, (long long)r.ret, r.err,
		r.error_reported, r.setup_param, r.cleanup_failed, (long long)r.duration_us);
	return 0;
}
