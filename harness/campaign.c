/*
 * A campaign (campaign.h).  At most WINDOW requests are outstanding, which
 * keeps every pipe below its capacity: neither side ever blocks writing,
 * so the executor and its fork servers cannot deadlock.
 *
 * A case the watchdog stopped is stored only after its second look
 * (forkserver.h): its request is kept, and once every case of the run has
 * been sent, the kept ones are run again, each in a fork server with
 * nothing else in flight (one server per core: a core of its own).  A run
 * stopped before then has not stored them: --resume runs them again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign.h"
#include "progress.h"

#define WINDOW 256
/* how often the campaign wakes when no result comes: the progress line
 * moves and the store commits even while every slot holds a hung case */
#define TICK_MS 200
#define LONG_RUNNING_US 1000000
/* a case's "datatype:VALUE" labels, and a function's datatype names, room
 * for 128 bytes a parameter */
#define NAMES_MAX (TB_MAX_PARAMS * 128)

/* The requests of the cases waiting for their second look. */
struct second_looks {
	struct tb_request *reqs;
	size_t n, cap;
};

struct function_plan {
	uint64_t *cases;  /* to run, ascending */
	size_t count, sent, received;
	/* "datatype:VALUE" of each parameter's values, made once: the store
	 * wants them for every case */
	char **labels[TB_MAX_PARAMS];
};

/* Removes from cases[] (ascending) those in done[] (ascending). */
static size_t without_done(uint64_t *cases, size_t n, const uint64_t *done, size_t ndone)
{
	size_t i, j = 0, kept = 0;

	for (i = 0; i < n; i++) {
		while (j < ndone && done[j] < cases[i])
			j++;
		if (j < ndone && done[j] == cases[i])
			continue;
		cases[kept++] = cases[i];
	}
	return kept;
}

static void datatype_names(const struct tb_planned_function *pf, char *out, size_t len)
{
	size_t used = 0;
	int i;

	out[0] = '\0';
	for (i = 0; i < pf->nparams && used < len; i++)
		used += (size_t)snprintf(out + used, len - used, "%s%s", i ? " " : "",
					 pf->fn->params[i]);
}

static int make_labels(const struct tb_planned_function *pf, struct function_plan *plan)
{
	int i, v;

	for (i = 0; i < pf->nparams; i++) {
		plan->labels[i] = calloc((size_t)pf->counts[i], sizeof(char *));
		if (!plan->labels[i])
			return -1;
		for (v = 0; v < pf->counts[i]; v++)
			if (asprintf(&plan->labels[i][v], "%s:%s", pf->fn->params[i],
				     pf->lists[i]->values[v]->name) < 0)
				return -1;
	}
	return 0;
}

static void free_labels(const struct tb_planned_function *pf, struct function_plan *plan)
{
	int i, v;

	for (i = 0; i < pf->nparams && plan->labels[i]; i++) {
		for (v = 0; v < pf->counts[i]; v++)
			free(plan->labels[i][v]);
		free(plan->labels[i]);
	}
}

/* The function's cases before sharding, ascending, into a malloc'd *cases:
 * those listed for the run, else drawn from its product, or from the
 * product of its pinned values and its other parameters' values.  Returns
 * their count, or -1. */
static long function_cases(struct tb_campaign *c, int fn, uint64_t **cases)
{
	const struct tb_planned_function *pf = &c->target->functions[fn];
	const struct tb_pins *pin = c->pins ? &c->pins[fn] : NULL;
	int sub[TB_MAX_PARAMS], i;
	uint64_t total = pf->total;
	size_t listed;
	long n;

	if (c->listed)
		return tb_store_listed_cases(c->store, c->run_id, pf->fn->name, cases, &listed)
			? -1 : (long)listed;
	if (pin) {  /* at most pf->total: no overflow */
		for (i = 0; i < pf->nparams; i++)
			sub[i] = pin->chosen[i] ? pin->nchosen[i] : pf->counts[i];
		tb_cases_total(sub, pf->nparams, &total);
	}
	*cases = malloc((total < c->cap ? (total ? total : 1) : c->cap) * sizeof(**cases));
	if (!*cases)
		return -1;
	n = tb_cases_draw(total, c->cap, c->seed, pf->fn->name, *cases);
	if (n > 0 && pin)
		tb_cases_widen(*cases, (size_t)n, pf->counts, pf->nparams,
			       (const int *const *)pin->chosen, pin->nchosen);
	return n;
}

/* first: the campaign position of the function's first drawn case, which
 * deals the cases to shards; it is advanced past the function's cases. */
static int plan_function(struct tb_campaign *c, int fn, struct function_plan *plan,
			 uint64_t *first)
{
	const struct tb_planned_function *pf = &c->target->functions[fn];
	uint64_t *done, drawn;
	size_t ndone;
	char types[NAMES_MAX];
	long n = function_cases(c, fn, &plan->cases);

	if (n < 0)
		return -1;
	drawn = (uint64_t)n;
	n = (long)tb_cases_shard(plan->cases, (size_t)n, *first, c->shard, c->shards);
	*first += drawn;
	datatype_names(pf, types, sizeof(types));
	if (tb_store_add_function(c->store, c->run_id, pf->fn->name, pf->fn->signature,
				  types, pf->total, drawn, pf->fn->unsigned_return) ||
	    tb_store_done_cases(c->store, c->run_id, pf->fn->name, &done, &ndone))
		return -1;
	plan->count = without_done(plan->cases, (size_t)n, done, ndone);
	free(done);
	return make_labels(pf, plan);
}

/* The case's values, "datatype:VALUE" space-separated, into out. */
static void value_names(const struct tb_planned_function *pf, const struct function_plan *plan,
			uint64_t case_index, char *out, size_t len)
{
	int index[TB_MAX_PARAMS], i;
	char *p = out, *end = out + len - 1;

	tb_case_decode(case_index, pf->counts, pf->nparams, index);
	for (i = 0; i < pf->nparams; i++) {
		const char *label = plan->labels[i][index[i]];
		size_t n = strlen(label);

		if (i && p < end)
			*p++ = ' ';
		if (n > (size_t)(end - p))
			n = (size_t)(end - p);
		memcpy(p, label, n);
		p += n;
	}
	*p = '\0';
}

/* Sends requests until WINDOW are outstanding or none are left; once
 * every case has been sent, a second look to each idle server. */
static int send_requests(struct tb_campaign *c, struct function_plan *plans, int *next,
			 struct second_looks *looks)
{
	struct tb_request batch[WINDOW];
	size_t outstanding = tb_pool_outstanding(c->servers);
	int n = 0;

	while (outstanding + (size_t)n < WINDOW && *next < c->nselected) {
		struct function_plan *p = &plans[c->selected[*next]];

		if (p->sent == p->count) {
			(*next)++;
			continue;
		}
		batch[n++] = (struct tb_request){ .fn = (uint32_t)c->selected[*next],
						  .case_index = p->cases[p->sent++] };
	}
	if (n || *next < c->nselected)
		return tb_pool_send(c->servers, batch, n);
	while (looks->n && tb_pool_has_idle(c->servers)) {
		struct tb_request look = looks->reqs[--looks->n];

		look.second_look = 1;
		if (tb_pool_send(c->servers, &look, 1))
			return -1;
	}
	return 0;
}

/* Keeps the request of a case that wants a second look. */
static int keep_for_second_look(struct second_looks *looks, const struct tb_result *r)
{
	if (looks->n == looks->cap) {
		size_t cap = looks->cap ? 2 * looks->cap : 64;
		struct tb_request *more = realloc(looks->reqs, cap * sizeof(*more));

		if (!more)
			return -1;
		looks->reqs = more;
		looks->cap = cap;
	}
	looks->reqs[looks->n++] = (struct tb_request){ .fn = r->fn, .case_index = r->case_index };
	return 0;
}

static int store_result(struct tb_campaign *c, struct function_plan *plans,
			const struct tb_result *r, struct tb_progress_line *progress)
{
	const struct tb_planned_function *pf = &c->target->functions[r->fn];
	struct function_plan *p = &plans[r->fn];
	char names[NAMES_MAX];

	if (r->outcome == TB_HARNESS) {
		fprintf(stderr, "\ntrebuchet-exec: harness failure: %s case %llu ended before its "
			"call (exit status %d); the sandbox could not be set up\n",
			pf->fn->name, (unsigned long long)r->case_index, r->exit_status);
		return -1;
	}
	value_names(pf, p, r->case_index, names, sizeof(names));
	if (tb_store_add_result(c->store, c->run_id, pf->fn->name, pf->fn->floating_return,
				names, r))
		return -1;
	tb_progress_count(progress, pf->fn->name, r->outcome);
	if (++p->received == p->count)
		return tb_store_finish_function(c->store, c->run_id, pf->fn->name);
	return 0;
}

static int run_results(struct tb_campaign *c, struct function_plan *plans,
		       struct second_looks *looks, uint64_t remaining)
{
	struct tb_progress_line progress;
	struct tb_result results[64];
	int next = 0, i, n;

	tb_progress_start(&progress, c->progress, c->target->plugin->target, remaining);
	while (remaining) {
		if (*c->interrupted)
			return tb_progress_end(&progress), TB_CAMPAIGN_INTERRUPTED;
		if (send_requests(c, plans, &next, looks))
			goto server_gone;
		n = tb_pool_receive(c->servers, results, 64, TICK_MS);
		if (n < 0)
			goto server_gone;
		if (tb_store_commit_due(c->store))
			return tb_progress_end(&progress), TB_CAMPAIGN_FAILED;
		tb_progress_tick(&progress, tb_pool_running_longer(c->servers, LONG_RUNNING_US));
		for (i = 0; i < n; i++) {
			if (c->second_look && tb_wants_second_look(&results[i])) {
				if (keep_for_second_look(looks, &results[i]))
					return tb_progress_end(&progress), TB_CAMPAIGN_FAILED;
				continue;
			}
			if (store_result(c, plans, &results[i], &progress))
				return tb_progress_end(&progress), TB_CAMPAIGN_FAILED;
			remaining--;
		}
	}
	tb_progress_end(&progress);
	return TB_CAMPAIGN_DONE;
server_gone:
	tb_progress_end(&progress);
	fprintf(stderr, "trebuchet-exec: a fork server died; run again with --resume\n");
	return TB_CAMPAIGN_FAILED;
}

static int run_plans(struct tb_campaign *c, struct function_plan *plans, uint64_t remaining)
{
	struct second_looks looks = { 0 };
	int rc = run_results(c, plans, &looks, remaining);

	free(looks.reqs);
	return rc;
}

int tb_campaign_run(struct tb_campaign *c)
{
	/* indexed by function, as results name them */
	struct function_plan *plans = calloc((size_t)c->target->nfunctions, sizeof(*plans));
	uint64_t remaining = 0, first = 0;
	int i, rc = TB_CAMPAIGN_FAILED;

	if (!plans)
		return TB_CAMPAIGN_FAILED;
	for (i = 0; i < c->nselected; i++) {
		struct function_plan *p = &plans[c->selected[i]];

		if (plan_function(c, c->selected[i], p, &first))
			goto out;
		if (p->count == 0 &&
		    tb_store_finish_function(c->store, c->run_id,
					     c->target->functions[c->selected[i]].fn->name))
			goto out;
		remaining += p->count;
	}
	rc = run_plans(c, plans, remaining);
out:
	if (tb_store_commit(c->store))
		rc = TB_CAMPAIGN_FAILED;
	if (rc == TB_CAMPAIGN_FAILED && tb_store_error(c->store)[0])
		fprintf(stderr, "trebuchet-exec: %s\n", tb_store_error(c->store));
	for (i = 0; i < c->nselected; i++) {
		free(plans[c->selected[i]].cases);
		free_labels(&c->target->functions[c->selected[i]], &plans[c->selected[i]]);
	}
	free(plans);
	return rc;
}
