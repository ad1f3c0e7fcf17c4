// SPDX-License-Identifier: GPL-2.0
/*
 * uet-sim: a discrete-event, packet-level simulator of a leaf-spine
 * fabric of sch_uet ports whose hosts run the module's congestion
 * control, load balancing and entropy-value states, compiled from
 * net/uet's own files (Documentation/uet/dev-guide/sim.rst).
 *
 *   uet-sim SCENARIO [options]   uplinks | incast | perm
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kernel.h>
#include <linux/time64.h>

#include "host.h"
#include "report.h"
#include "workload.h"

struct scenario {
	const char *name;
	const char *what;
	void (*workload)(struct sim *s);
	/* Leaves it needs: traffic crosses the spines. */
	u32 min_leaves;
	const char *lb;
	u64 bytes;
	u32 seeds;
};

/* htsim's SMaRTT incast (arXiv 2404.01630), scaled down: 8 senders of
 * 4 MiB each at 100 Gb/s, 4 KiB packets, 700 ns a hop.
 */
#define SIM_INCAST_SENDERS	8
#define SIM_MIB			(1024ULL * 1024)

static const struct scenario sim_scenarios[] = {
	{ "uplinks", "a flow from each host of leaf 0 to leaf 1",
	  wl_uplinks, 2, "single", SIM_MIB, 100 },
	{ "incast", "senders outside leaf 0 to its host 0",
	  wl_incast, 2, "reps", 4 * SIM_MIB, 1 },
	{ "perm", "every host to another, a random cyclic permutation",
	  wl_perm, 1, "reps", SIM_MIB, 1 },
};

static void sim_usage(FILE *out)
{
	size_t i;

	fputs("Usage: uet-sim SCENARIO [--seed N] [--seeds N] [--leaves N]\n"
	      "         [--spines N] [--hosts N] [--rate-gbps N] [--mtu N]\n"
	      "         [--hop-ns N] [--lb single|spray|reps]\n"
	      "         [--cc none|nscc|dcqcn] [--cc-param NAME=VALUE]...\n"
	      "         [--flowlet N] [--bytes N]\n"
	      "         [--senders N] [--rto-min-us N] [--max-us N] [--json]\n"
	      "scenarios:\n", out);
	for (i = 0; i < ARRAY_SIZE(sim_scenarios); i++)
		fprintf(out, "  %-8s %s\n", sim_scenarios[i].name,
			sim_scenarios[i].what);
}

static u64 parse_u64(const char *opt, const char *s, u64 lo, u64 hi)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || v < lo || v > hi) {
		fprintf(stderr, "uet-sim: --%s: %s is not in %llu..%llu\n", opt,
			s, (unsigned long long)lo, (unsigned long long)hi);
		exit(2);
	}
	return v;
}

/* NAME=VALUE for a parameter of @ops, within its range. */
static void parse_cc_param(const struct uet_cc_ops *ops, char *arg,
			   u32 *params)
{
	char *eq = strchr(arg, '=');
	int i;

	if (eq)
		*eq = '\0';
	i = eq ? uet_cc_param_index(ops, arg) : -ENOENT;
	if (i < 0) {
		fprintf(stderr, "uet-sim: cc %s has no parameter %s\n",
			ops->name, arg);
		exit(2);
	}
	params[i] = parse_u64(arg, eq + 1, ops->params[i].min,
			      ops->params[i].max);
}

static void run(const struct sim_params *p, const struct scenario *sc,
		u64 seed, struct report *rep)
{
	const struct topo_cfg tc = {
		.leaves = p->leaves,
		.spines = p->spines,
		.hosts_per_leaf = p->hosts,
		.rate_bps = (u64)p->rate_gbps * 1000000000,
		.hop_ns = p->hop_ns,
		.mtu = p->mtu,
		.seed = seed,
	};
	struct sim s = { .p = p, .seed = seed };
	struct run_result r;

	evq_init(&s.evq);
	topo_init(&s.topo, &tc, &s.evq, &s.pool);
	hosts_init(&s);
	sc->workload(&s);
	flows_start(&s);
	evq_run(&s.evq, p->max_ns);
	report_collect(&s, &r);
	if (seed == p->seed)
		report_begin(rep, &s);
	report_run(rep, &s, &r);
	hosts_free(&s);
	free(s.focus);
	topo_free(&s.topo);
	pkt_pool_free(&s.pool);
	evq_free(&s.evq);
}

enum {
	OPT_SEED = 256,
	OPT_SEEDS,
	OPT_LEAVES,
	OPT_SPINES,
	OPT_HOSTS,
	OPT_RATE,
	OPT_MTU,
	OPT_HOP,
	OPT_LB,
	OPT_CC,
	OPT_CC_PARAM,
	OPT_FLOWLET,
	OPT_BYTES,
	OPT_SENDERS,
	OPT_RTO_MIN,
	OPT_MAX,
	OPT_JSON,
	OPT_HELP,
};

static const struct option sim_options[] = {
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "seeds", required_argument, NULL, OPT_SEEDS },
	{ "leaves", required_argument, NULL, OPT_LEAVES },
	{ "spines", required_argument, NULL, OPT_SPINES },
	{ "hosts", required_argument, NULL, OPT_HOSTS },
	{ "rate-gbps", required_argument, NULL, OPT_RATE },
	{ "mtu", required_argument, NULL, OPT_MTU },
	{ "hop-ns", required_argument, NULL, OPT_HOP },
	{ "lb", required_argument, NULL, OPT_LB },
	{ "cc", required_argument, NULL, OPT_CC },
	{ "cc-param", required_argument, NULL, OPT_CC_PARAM },
	{ "flowlet", required_argument, NULL, OPT_FLOWLET },
	{ "bytes", required_argument, NULL, OPT_BYTES },
	{ "senders", required_argument, NULL, OPT_SENDERS },
	{ "rto-min-us", required_argument, NULL, OPT_RTO_MIN },
	{ "max-us", required_argument, NULL, OPT_MAX },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

int main(int argc, char **argv)
{
	const struct scenario *sc = NULL;
	struct sim_params p = {
		.seed = 1,
		.leaves = 2,
		.spines = 8,
		.hosts = 8,
		.rate_gbps = 100,
		.mtu = 4096,
		.hop_ns = 700,
		.cc = &uet_cc_nscc,
		/* A value per packet, as UE 1.0 section 3.6.16 sprays; the
		 * module's auto flowcells (0) suit a software host.
		 */
		.flowlet_pkts = 1,
		.senders = SIM_INCAST_SENDERS,
		/* The least rto_min_us the module takes (net/uet/params.c):
		 * its default is sized for software hosts' milliseconds.
		 */
		.rto_min_us = 1000,
		.max_ns = 100 * NSEC_PER_MSEC,
	};
	const char *lb = NULL;
	char **cc_params = calloc(argc, sizeof(*cc_params));
	u32 ncc_params = 0, j;
	u64 bytes = 0, seeds = 0;
	struct report rep = { .out = stdout };
	size_t i;
	int c;

	if (!cc_params) {
		perror("uet-sim");
		return 2;
	}

	while ((c = getopt_long(argc, argv, "", sim_options, NULL)) != -1) {
		switch (c) {
		case OPT_SEED:
			p.seed = parse_u64("seed", optarg, 0, U32_MAX);
			break;
		case OPT_SEEDS:
			seeds = parse_u64("seeds", optarg, 1, 100000);
			break;
		case OPT_LEAVES:
			p.leaves = parse_u64("leaves", optarg, 1, 1024);
			break;
		case OPT_SPINES:
			p.spines = parse_u64("spines", optarg, 1, 1024);
			break;
		case OPT_HOSTS:
			p.hosts = parse_u64("hosts", optarg, 1, 1024);
			break;
		case OPT_RATE:
			p.rate_gbps = parse_u64("rate-gbps", optarg, 1, 1600);
			break;
		case OPT_MTU:
			p.mtu = parse_u64("mtu", optarg, 256, 65536);
			break;
		case OPT_HOP:
			p.hop_ns = parse_u64("hop-ns", optarg, 0, 100000);
			break;
		case OPT_LB:
			lb = optarg;
			break;
		case OPT_CC:
			p.cc = uet_cc_find(optarg);
			if (!p.cc) {
				fprintf(stderr, "uet-sim: no cc %s\n", optarg);
				return 2;
			}
			break;
		case OPT_CC_PARAM:
			cc_params[ncc_params++] = optarg;
			break;
		case OPT_FLOWLET:
			p.flowlet_pkts = parse_u64("flowlet", optarg, 0,
						   UET_LB_CELL_MAX);
			break;
		case OPT_BYTES:
			bytes = parse_u64("bytes", optarg, 1, 1ULL << 34);
			break;
		case OPT_SENDERS:
			p.senders = parse_u64("senders", optarg, 1, 65536);
			break;
		case OPT_RTO_MIN:
			p.rto_min_us = parse_u64("rto-min-us", optarg, 1,
						 60000000);
			break;
		case OPT_MAX:
			p.max_ns = parse_u64("max-us", optarg, 1, 60000000) *
				   NSEC_PER_USEC;
			break;
		case OPT_JSON:
			p.json = true;
			break;
		case OPT_HELP:
			sim_usage(stdout);
			return 0;
		default:
			sim_usage(stderr);
			return 2;
		}
	}
	if (optind + 1 != argc) {
		sim_usage(stderr);
		return 2;
	}
	for (i = 0; i < ARRAY_SIZE(sim_scenarios); i++)
		if (!strcmp(argv[optind], sim_scenarios[i].name))
			sc = &sim_scenarios[i];
	if (!sc) {
		fprintf(stderr, "uet-sim: no scenario %s\n", argv[optind]);
		sim_usage(stderr);
		return 2;
	}
	/* The algorithm's defaults, then what was given, once it is known. */
	for (j = 0; j < p.cc->nparams; j++)
		p.cc_params[j] = p.cc->params[j].def;
	for (j = 0; j < ncc_params; j++)
		parse_cc_param(p.cc, cc_params[j], p.cc_params);
	free(cc_params);
	p.scenario = sc->name;
	p.lb = uet_lb_find(lb ?: sc->lb);
	if (!p.lb) {
		fprintf(stderr, "uet-sim: no lb %s\n", lb);
		return 2;
	}
	p.bytes = bytes ?: sc->bytes;
	p.seeds = seeds ?: sc->seeds;
	if (p.leaves < sc->min_leaves ||
	    (sc->workload == wl_incast &&
	     p.senders > (p.leaves - 1) * p.hosts) ||
	    (u64)p.leaves * p.hosts < 2) {
		fprintf(stderr, "uet-sim: %s needs %u leaves or more, 2 hosts\n",
			sc->name, sc->min_leaves);
		fprintf(stderr, "uet-sim: and a host outside leaf 0 per sender\n");
		return 2;
	}
	if (p.bytes > (u64)p.mtu * U32_MAX) {
		fprintf(stderr, "uet-sim: --bytes: more than 2^32 packets\n");
		return 2;
	}
	rep.json = p.json;
	for (i = 0; i < p.seeds; i++)
		run(&p, sc, p.seed + i, &rep);
	report_end(&rep);
	return 0;
}
