// SPDX-License-Identifier: GPL-2.0
/*
 * uet-sim: a discrete-event, packet-level simulator of a leaf-spine
 * fabric of sch_uet ports whose hosts run the module's packet delivery
 * context, congestion control, load balancing and entropy-value states,
 * compiled from net/uet's own files (Documentation/uet/dev-guide/sim.rst).
 *
 *   uet-sim SCENARIO [options]   (uet-sim --help lists them)
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/time64.h>

#include "fault.h"
#include "host.h"
#include "pdc.h"
#include "probe.h"
#include "report.h"
#include "scenario.h"
#include "series.h"
#include "workload.h"

/* Light in glass of refractive index about 1.5 covers a km in 5 us. */
#define SIM_NS_PER_KM		5000
/* A run of flows that last the whole run spans this many base RTTs by
 * default, its second half judged: the first climbs to the rate.
 */
#define SIM_LONG_RTTS		30

static void sim_usage(FILE *out)
{
	size_t i;

	fputs("Usage: uet-sim SCENARIO [--seed N] [--seeds N] [--leaves N]\n"
	      "         [--spines N] [--hosts N] [--rate-gbps N] [--mtu N]\n"
	      "         [--hop-ns N | --rtt-us N] [--km N]\n"
	      "         [--lb single|spray|reps] [--cc none|nscc|dcqcn]\n"
	      "         [--cc-param NAME=VALUE]... [--flowlet N] [--bytes N]\n"
	      "         [--senders N] [--mpr N] [--rto-min-us N] [--max-us N]\n"
	      "         [--tune] [--fail-us N] [--fail-spine N] [--slow-pct N]\n"
	      "         [--probe-us N] [--entropy-count N] [--reps-ring N]\n"
	      "         [--bin-ns N] [--series FILE] [--timing] [--json]\n"
	      "scenarios:\n", out);
	for (i = 0; i < sim_nscenarios; i++)
		fprintf(out, "  %-12s %s\n", sim_scenarios[i].name,
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

static void sim_topo_cfg(const struct sim_params *p, u64 seed,
			 struct topo_cfg *tc)
{
	*tc = (struct topo_cfg){
		.leaves = p->leaves,
		.spines = p->spines,
		.hosts_per_leaf = p->hosts,
		.rate_bps = (u64)p->rate_gbps * 1000000000,
		.hop_ns = p->hop_ns,
		.long_ns = (u64)p->km * SIM_NS_PER_KM,
		.mtu = p->mtu,
		.seed = seed,
		.tune = p->tune,
		.tune_dcqcn = p->cc == &uet_cc_dcqcn,
	};
}

/* The focus ports' line time when the judged part of a run starts. */
static void sim_warm(void *a, void *b)
{
	struct sim *s = a;
	u32 i;

	for (i = 0; i < s->nfocus; i++)
		s->warm_line_ns += s->focus[i]->st.line_ns;
}

static u64 sim_wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static void run(const struct sim_params *p, const struct scenario *sc,
		u64 seed, struct report *rep)
{
	struct sim s = { .p = p, .seed = seed };
	u64 wall = sim_wall_ns();
	struct series *sr = NULL;
	struct run_result r;
	struct topo_cfg tc;

	sim_topo_cfg(p, seed, &tc);
	evq_init(&s.evq);
	topo_init(&s.topo, &tc, &s.evq, &s.pool);
	hosts_init(&s);
	sc->workload(&s);
	if (p->groups & SIM_G_FAIL)
		fault_schedule(&s);
	if (p->groups & SIM_G_LONG) {
		s.warm_ns = p->max_ns / 2;
		evq_at(&s.evq, s.warm_ns, sim_warm, &s, NULL);
	}
	flows_start(&s);
	/* The first seed's run: the parameters printed are its. */
	if (p->series && seed == p->seed)
		sr = series_open(&s, p->series,
				 p->bin_ns ?: s.topo.base_rtt_ns, p->fail_ns);
	evq_run(&s.evq, p->max_ns);
	if (sr)
		series_close(sr, s.flows_done == s.nflows ? s.evq.now :
				 p->max_ns);
	report_collect(&s, &r);
	r.wall_ns = sim_wall_ns() - wall;
	r.wall_ms = (double)r.wall_ns / NSEC_PER_MSEC;
	r.events_per_s = r.events * 1e9 / max_t(u64, r.wall_ns, 1);
	if (seed == p->seed)
		report_begin(rep, &s);
	report_run(rep, &s, &r);
	fault_free(&s);
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
	OPT_RTT,
	OPT_KM,
	OPT_LB,
	OPT_CC,
	OPT_CC_PARAM,
	OPT_FLOWLET,
	OPT_BYTES,
	OPT_SENDERS,
	OPT_MPR,
	OPT_RTO_MIN,
	OPT_MAX,
	OPT_TUNE,
	OPT_FAIL,
	OPT_FAIL_SPINE,
	OPT_SLOW,
	OPT_PROBE,
	OPT_EVS,
	OPT_RING,
	OPT_BIN,
	OPT_SERIES,
	OPT_TIMING,
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
	{ "rtt-us", required_argument, NULL, OPT_RTT },
	{ "km", required_argument, NULL, OPT_KM },
	{ "lb", required_argument, NULL, OPT_LB },
	{ "cc", required_argument, NULL, OPT_CC },
	{ "cc-param", required_argument, NULL, OPT_CC_PARAM },
	{ "flowlet", required_argument, NULL, OPT_FLOWLET },
	{ "bytes", required_argument, NULL, OPT_BYTES },
	{ "senders", required_argument, NULL, OPT_SENDERS },
	{ "mpr", required_argument, NULL, OPT_MPR },
	{ "rto-min-us", required_argument, NULL, OPT_RTO_MIN },
	{ "max-us", required_argument, NULL, OPT_MAX },
	{ "tune", no_argument, NULL, OPT_TUNE },
	{ "fail-us", required_argument, NULL, OPT_FAIL },
	{ "fail-spine", required_argument, NULL, OPT_FAIL_SPINE },
	{ "slow-pct", required_argument, NULL, OPT_SLOW },
	{ "probe-us", required_argument, NULL, OPT_PROBE },
	{ "entropy-count", required_argument, NULL, OPT_EVS },
	{ "reps-ring", required_argument, NULL, OPT_RING },
	{ "bin-ns", required_argument, NULL, OPT_BIN },
	{ "series", required_argument, NULL, OPT_SERIES },
	{ "timing", no_argument, NULL, OPT_TIMING },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

/* The scenario named among the arguments, options left for later. */
static const struct scenario *sim_scenario(int argc, char **argv)
{
	const struct scenario *sc;

	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "", sim_options, NULL)) != -1) {
		if (c == OPT_HELP) {
			sim_usage(stdout);
			exit(0);
		}
	}
	opterr = 1;
	if (optind + 1 != argc)
		return NULL;
	sc = scenario_find(argv[optind]);
	if (!sc)
		fprintf(stderr, "uet-sim: no scenario %s\n", argv[optind]);
	/* getopt starts over, argv as permuted. */
	optind = 0;
	return sc;
}

/* The options, over the scenario's defaults; false on a bad one. */
static bool sim_parse(int argc, char **argv, struct sim_params *p,
		      char **cc_params, u32 *ncc_params, u64 *rtt_us)
{
	const char *lb;
	int c;

	while ((c = getopt_long(argc, argv, "", sim_options, NULL)) != -1) {
		switch (c) {
		case OPT_SEED:
			p->seed = parse_u64("seed", optarg, 0, U32_MAX);
			break;
		case OPT_SEEDS:
			p->seeds = parse_u64("seeds", optarg, 1, 100000);
			break;
		case OPT_LEAVES:
			p->leaves = parse_u64("leaves", optarg, 1, 1024);
			break;
		case OPT_SPINES:
			p->spines = parse_u64("spines", optarg, 1, 1024);
			break;
		case OPT_HOSTS:
			p->hosts = parse_u64("hosts", optarg, 1, 1024);
			break;
		case OPT_RATE:
			p->rate_gbps = parse_u64("rate-gbps", optarg, 1, 1600);
			break;
		case OPT_MTU:
			p->mtu = parse_u64("mtu", optarg, 256, 65536);
			break;
		case OPT_HOP:
			p->hop_ns = parse_u64("hop-ns", optarg, 0, 100000);
			break;
		case OPT_RTT:
			*rtt_us = parse_u64("rtt-us", optarg, 1, 1000000);
			break;
		case OPT_KM:
			p->km = parse_u64("km", optarg, 0, 20000);
			break;
		case OPT_LB:
			lb = optarg;
			p->lb = uet_lb_find(lb);
			if (!p->lb) {
				fprintf(stderr, "uet-sim: no lb %s\n", lb);
				return false;
			}
			break;
		case OPT_CC:
			p->cc = uet_cc_find(optarg);
			if (!p->cc) {
				fprintf(stderr, "uet-sim: no cc %s\n", optarg);
				return false;
			}
			break;
		case OPT_CC_PARAM:
			cc_params[(*ncc_params)++] = optarg;
			break;
		case OPT_FLOWLET:
			p->flowlet_pkts = parse_u64("flowlet", optarg, 0,
						    UET_LB_CELL_MAX);
			break;
		case OPT_BYTES:
			p->bytes = parse_u64("bytes", optarg, 0, 1ULL << 34);
			break;
		case OPT_SENDERS:
			p->senders = parse_u64("senders", optarg, 1, 65536);
			break;
		case OPT_MPR:
			p->mpr = parse_u64("mpr", optarg, 0, UET_PDC_WIN_MAX);
			break;
		case OPT_RTO_MIN:
			p->rto_min_us = parse_u64("rto-min-us", optarg, 1,
						  60000000);
			break;
		case OPT_MAX:
			p->max_ns = parse_u64("max-us", optarg, 1, 60000000) *
				    NSEC_PER_USEC;
			break;
		case OPT_TUNE:
			p->tune = true;
			break;
		case OPT_FAIL:
			p->fail_ns = parse_u64("fail-us", optarg, 1, 60000000) *
				     NSEC_PER_USEC;
			break;
		case OPT_FAIL_SPINE:
			p->fail_spine = parse_u64("fail-spine", optarg, 0, 1023);
			break;
		case OPT_SLOW:
			p->slow_pct = parse_u64("slow-pct", optarg, 0, 100);
			break;
		case OPT_PROBE:
			p->probe_us = parse_u64("probe-us", optarg, 100,
						10000000);
			break;
		case OPT_EVS:
			p->entropy_count = parse_u64("entropy-count", optarg, 1,
						     UET_LB_EV_SPACE);
			break;
		case OPT_RING:
			p->reps_ring = parse_u64("reps-ring", optarg, 1,
						 UET_LB_REPS_RING_MAX);
			break;
		case OPT_BIN:
			p->bin_ns = parse_u64("bin-ns", optarg, 1, 100000000);
			break;
		case OPT_SERIES:
			p->series = optarg;
			break;
		case OPT_TIMING:
			p->groups |= SIM_G_TIMING;
			break;
		case OPT_JSON:
			p->json = true;
			break;
		case OPT_HELP:
			sim_usage(stdout);
			exit(0);
		default:
			return false;
		}
	}
	return true;
}

/* What follows from the options: the hops, the run's length, the flows'
 * size, what is printed; false when they do not fit together.
 */
static bool sim_derive(struct sim_params *p, const struct scenario *sc,
		       u64 rtt_us)
{
	struct topo_cfg tc;
	u64 bdp;

	sim_topo_cfg(p, p->seed, &tc);
	if (rtt_us) {
		if (p->km) {
			fprintf(stderr, "uet-sim: --rtt-us or --km\n");
			return false;
		}
		p->rtt_ns = rtt_us * NSEC_PER_USEC;
		p->hop_ns = topo_hop_for_rtt(&tc, p->rtt_ns);
		if (!p->hop_ns) {
			fprintf(stderr,
				"uet-sim: --rtt-us: less than the packets' line time\n");
			return false;
		}
		sim_topo_cfg(p, p->seed, &tc);
	}
	if (!p->max_ns)
		p->max_ns = SIM_LONG_RTTS * topo_cfg_base_rtt(&tc);
	/* A window of one BDP, within the module's largest. */
	bdp = mul_u64_u64_div_u64(tc.rate_bps / 8, topo_cfg_base_rtt(&tc),
				  NSEC_PER_SEC);
	if (!p->mpr)
		p->mpr = clamp_t(u64, DIV_ROUND_UP(bdp, p->mtu), 1,
				 UET_PDC_WIN_MAX);
	if (!p->bytes) {
		p->bytes = mul_u64_u64_div_u64(tc.rate_bps / 8, p->max_ns,
					       NSEC_PER_SEC);
		p->groups |= SIM_G_LONG;
	}
	if (p->km)
		p->groups |= SIM_G_LONG;
	if (p->tune)
		p->groups |= SIM_G_TUNE | SIM_G_PATHS;
	if (p->leaves < sc->min_leaves ||
	    (sc->workload == wl_incast &&
	     p->senders > (p->leaves - 1) * p->hosts) ||
	    (u64)p->leaves * p->hosts < 2) {
		fprintf(stderr, "uet-sim: %s needs %u leaves or more, 2 hosts\n",
			sc->name, sc->min_leaves);
		fprintf(stderr, "uet-sim: and a host outside leaf 0 per sender\n");
		return false;
	}
	if (!(p->groups & SIM_G_FAIL) &&
	    (p->fail_ns || p->fail_spine || p->slow_pct)) {
		fprintf(stderr, "uet-sim: %s has no fault: blackhole, slowspine\n",
			sc->name);
		return false;
	}
	if (!(p->groups & SIM_G_FAIL) && p->bin_ns && !p->series) {
		fprintf(stderr, "uet-sim: --bin-ns: of a fault's meter or of --series\n");
		return false;
	}
	if ((p->groups & SIM_G_FAIL) && p->fail_spine >= p->spines) {
		fprintf(stderr, "uet-sim: --fail-spine: no spine %u\n",
			p->fail_spine);
		return false;
	}
	if (p->bytes > (u64)p->mtu * U32_MAX) {
		fprintf(stderr, "uet-sim: --bytes: more than 2^32 packets\n");
		return false;
	}
	return true;
}

int main(int argc, char **argv)
{
	const struct scenario *sc = sim_scenario(argc, argv);
	struct sim_params p = {
		.seed = 1,
		.seeds = 1,
		.leaves = 2,
		.spines = 8,
		.hosts = 8,
		.rate_gbps = 100,
		.mtu = 4096,
		.hop_ns = 700,
		.lb = &uet_lb_reps,
		.cc = &uet_cc_nscc,
		/* A value per packet, as UE 1.0 section 3.6.16 sprays; the
		 * module's auto flowcells (0) suit a software host.
		 */
		.flowlet_pkts = 1,
		.senders = 8,
		.mpr = FLOW_MPR,
		/* The least rto_min_us the module takes (net/uet/params.c):
		 * its default is sized for software hosts' milliseconds.
		 */
		.rto_min_us = 1000,
		.max_ns = 100 * NSEC_PER_MSEC,
		.probe_us = PROBE_INTERVAL_US,
		.entropy_count = UET_LB_EV_COUNT_DEFAULT,
		.reps_ring = UET_LB_REPS_RING_DEFAULT,
	};
	char **cc_params = calloc(argc, sizeof(*cc_params));
	u32 ncc_params = 0, j;
	u64 rtt_us = 0, i;
	struct report rep = { .out = stdout };

	if (!cc_params) {
		perror("uet-sim");
		return 2;
	}
	if (!sc) {
		sim_usage(stderr);
		return 2;
	}
	sc->defaults(&p);
	p.scenario = sc->name;
	p.groups = sc->groups;
	if (!sim_parse(argc, argv, &p, cc_params, &ncc_params, &rtt_us)) {
		sim_usage(stderr);
		return 2;
	}
	/* The algorithm's defaults, then what was given, once it is known. */
	for (j = 0; j < p.cc->nparams; j++)
		p.cc_params[j] = p.cc->params[j].def;
	for (j = 0; j < ncc_params; j++)
		parse_cc_param(p.cc, cc_params[j], p.cc_params);
	free(cc_params);
	if (!sim_derive(&p, sc, rtt_us))
		return 2;
	rep.json = p.json;
	for (i = 0; i < p.seeds; i++)
		run(&p, sc, p.seed + i, &rep);
	report_end(&rep);
	return 0;
}
