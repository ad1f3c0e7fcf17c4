// SPDX-License-Identifier: GPL-2.0
/*
 * uet tune: a switch port's sch_uet settings from the port's rate and the
 * fabric's base RTT, by the rules of Documentation/uet/admin-guide/
 * sizing.rst, for the congestion control the devices run. The RTT is given,
 * or the least one the RC QPs of a device measured (their meas_rtt_ns, net
 * of the receivers' ACK delay), shown with what that QP's congestion
 * control runs on. "apply" hands the settings to tc.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/uet.h>

#include "tune_size.h"
#include "uet.h"

void tune_usage(FILE *f)
{
	fprintf(f,
		"Usage: uet [ -j ] tune rate RATE { rtt TIME | dev DEV }\n"
		"                [ cc { nscc | dcqcn } ] [ apply NETDEV ]\n"
		"       uet tune help\n"
		"where  RATE := NUMBER[ bit | kbit | mbit | gbit ], the port's rate\n"
		"       TIME := NUMBER[ us | ms | s ], the base RTT (bare: us)\n"
		"dev DEV takes the least RTT its RC QPs measured; cc is nscc unless\n"
		"given; apply sets the port's qdisc on NETDEV with tc.\n");
}

/* The port and what it is tuned for. */
struct tune {
	uint64_t rate_bps;
	uint64_t rtt_ns;
	bool dcqcn;
};

/* NUMBER (decimals allowed) and a unit from units, scaled by its factor
 * (units[0] is the bare number's); false if malformed or out of range.
 */
static bool parse_scaled(const char *s, const char *const *units,
			 const double *scale, double max, double *val)
{
	char *end;
	double v;
	int u;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtod(s, &end);
	if (errno || !isfinite(v))
		return false;
	u = *end ? lookup(end, units) : 0;
	if (u < 0 || (*end && strcmp(end, units[u])))
		return false;
	v *= scale[u];
	if (v < 1 || v > max)
		return false;
	*val = v;
	return true;
}

static bool parse_rate(const char *s, uint64_t *bps)
{
	static const char *const units[] = {
		"bit", "kbit", "mbit", "gbit", "tbit", NULL
	};
	static const double scale[] = { 1, 1e3, 1e6, 1e9, 1e12 };
	double v;

	if (!parse_scaled(s, units, scale, 1e13, &v))
		return false;
	*bps = llround(v);
	return true;
}

static bool parse_rtt(const char *s, uint64_t *ns)
{
	static const char *const units[] = { "us", "ms", "s", NULL };
	static const double scale[] = { 1e3, 1e6, 1e9 };
	double v;

	/* Up to 10 s: an RTT, not a timeout. */
	if (!parse_scaled(s, units, scale, 1e10, &v))
		return false;
	*ns = llround(v);
	return true;
}

/* What the measured inputs gave the congestion control of one QP: the
 * parameters on auto take these values (cc-nscc.rst, cc-dcqcn.rst).
 */
static const char *const tune_in_force[] = {
	"link_mbps", "linkspeed_mbps", "base_rtt_ns", "max_wnd", "target_ns",
	"max_rate_mbps", "start_rate_mbps", "min_dec_fac", "ai_rate_kbps",
	"hai_rate_kbps", "alpha_period_us", "monitor_period_us",
	"time_reset_us", NULL
};

/* The QP of a dump with the least meas_rtt_ns (0 while none has one),
 * and its congestion control's values in force.
 */
struct tune_qp {
	uint64_t rtt_ns;
	uint32_t qpn;
	char cc[16];
	unsigned int n;
	const char *name[ARRAY_SIZE(tune_in_force)];
	uint64_t value[ARRAY_SIZE(tune_in_force)];
};

static int tune_qp_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *qtb[UET_A_QP_MAX + 1];
	struct tune_qp *best = data, qp = { 0 };
	const struct nlattr *a;
	const char *name;
	uint64_t val;
	int i;

	qp_parse(nlh, qtb);
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (!nl_stat(a, UET_A_QP_CC_STAT, &name, &val))
			continue;
		if (!strcmp(name, "meas_rtt_ns"))
			qp.rtt_ns = val;
		for (i = 0; tune_in_force[i]; i++) {
			if (strcmp(name, tune_in_force[i]) ||
			    qp.n >= ARRAY_SIZE(qp.name))
				continue;
			qp.name[qp.n] = tune_in_force[i];
			qp.value[qp.n++] = val;
		}
	}
	if (!qp.rtt_ns || (best->rtt_ns && qp.rtt_ns >= best->rtt_ns))
		return MNL_CB_OK;
	if (qtb[UET_A_QP_QPN])
		qp.qpn = nl_uint(qtb[UET_A_QP_QPN]);
	if (qtb[UET_A_QP_CC])
		snprintf(qp.cc, sizeof(qp.cc), "%s",
			 mnl_attr_get_str(qtb[UET_A_QP_CC]));
	*best = qp;
	return MNL_CB_OK;
}

static int tune_measured(struct uet *u, const char *dev, struct tune_qp *qp)
{
	struct nlmsghdr *nlh;

	memset(qp, 0, sizeof(*qp));
	if (nl_open(u))
		return 1;
	nlh = nl_msg(u, UET_CMD_QP_GET, NLM_F_DUMP);
	if (!nl_put_strz(nlh, UET_A_QP_DEV_NAME, dev) ||
	    nl_request(u, nlh, tune_qp_cb, qp))
		return 1;
	if (!qp->rtt_ns) {
		fprintf(stderr,
			"uet: no RC QP of %s has measured an RTT; move some data across the idle fabric first, or give rtt\n",
			dev);
		return 1;
	}
	return 0;
}

/* The QP the RTT came from, its congestion control and what it runs on. */
static void tune_print_qp(const char *dev, const struct tune_qp *qp)
{
	unsigned int i;

	print_obj_open("measured_by");
	print_str("dev", "\nmeasured by %s", dev);
	print_u64("qpn", " qpn %llu", qp->qpn);
	if (qp->cc[0])
		print_str("cc", " cc %s", qp->cc);
	for (i = 0; i < qp->n; i++)
		print_pair_u64(qp->name[i], qp->value[i]);
	print_obj_close();
}

/* A rate as tc writes it, in the largest unit it is whole in. */
static void tune_rate(uint64_t bps, char *buf, size_t len)
{
	if (!(bps % 1000000))
		snprintf(buf, len, "%llumbit", (unsigned long long)(bps / 1000000));
	else if (!(bps % 1000))
		snprintf(buf, len, "%llukbit", (unsigned long long)(bps / 1000));
	else
		snprintf(buf, len, "%llubit", (unsigned long long)bps);
}

/* The tc words after "root uet", as tc takes them. */
static void tune_qdisc(const struct tune *t, char *buf, size_t len)
{
	struct tune_size sz;
	char rate[32];

	tune_rate(t->rate_bps, rate, sizeof(rate));
	tune_size(t->rate_bps, t->rtt_ns, t->dcqcn, &sz);
	/* A ramp in shares of the buffer is UET-CC's, whose pmax is the
	 * qdisc's own default: tc is not given it.
	 */
	if (sz.pct)
		snprintf(buf, len, "rate %s limit %llu kmin %llu%% kmax %llu%%%s",
			 rate, (unsigned long long)sz.limit,
			 (unsigned long long)sz.kmin,
			 (unsigned long long)sz.kmax,
			 sz.trim ? " trim on" : " trim off");
	else
		snprintf(buf, len,
			 "rate %s limit %llu kmin %lluus kmax %lluus pmax %u%s",
			 rate, (unsigned long long)sz.limit,
			 (unsigned long long)sz.kmin,
			 (unsigned long long)sz.kmax, sz.pmax,
			 sz.trim ? " trim on" : " trim off");
}

/* tc qdisc replace dev NETDEV root uet WORDS...: tc's exit status. */
static int tune_apply(const char *netdev, char *words)
{
	char *argv[32] = { "tc", "qdisc", "replace", "dev", (char *)netdev,
			   "root", "uet" };
	int argc = 7, status;
	char *w, *save;
	pid_t pid;

	for (w = strtok_r(words, " ", &save); w && argc < 31;
	     w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("uet: fork");
		return 1;
	}
	if (!pid) {
		execvp("tc", argv);
		perror("uet: tc");
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0) {
		perror("uet: waitpid");
		return 1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "uet: tc could not set the qdisc of %s\n", netdev);
		return 1;
	}
	return 0;
}

int do_tune(struct uet *u, int argc, char **argv)
{
	static const char *const keys[] = {
		"rate", "rtt", "dev", "cc", "apply", NULL
	};
	static const char *const ccs[] = { "nscc", "dcqcn", NULL };
	const char *dev = NULL, *netdev = NULL;
	struct tune t = { 0 };
	struct tune_qp qp;
	char words[256], rate[32];
	int k, c;

	if (argc && !strcmp(argv[0], "help")) {
		tune_usage(stdout);
		return 0;
	}
	for (; argc; argc -= 2, argv += 2) {
		k = arg_key(argc, argv, keys, tune_usage);
		if (k < 0)
			return 1;
		switch (k) {
		case 0:
			if (!parse_rate(argv[1], &t.rate_bps)) {
				fprintf(stderr, "uet: rate: \"%s\" is no rate (e.g. 40mbit)\n",
					argv[1]);
				return 1;
			}
			break;
		case 1:
			if (!parse_rtt(argv[1], &t.rtt_ns)) {
				fprintf(stderr, "uet: rtt: \"%s\" is no time up to 10 s (e.g. 21ms)\n",
					argv[1]);
				return 1;
			}
			break;
		case 2:
			dev = argv[1];
			break;
		case 3:
			c = lookup(argv[1], ccs);
			if (c < 0) {
				fprintf(stderr, "uet: cc is nscc or dcqcn, not \"%s\"\n",
					argv[1]);
				return 1;
			}
			t.dcqcn = c == 1;
			break;
		case 4:
			netdev = argv[1];
			break;
		}
	}
	if (!t.rate_bps || !t.rtt_ns == !dev) {
		fprintf(stderr, "uet: tune needs rate, and rtt or dev (one of them)\n");
		tune_usage(stderr);
		return 1;
	}
	if (dev) {
		if (tune_measured(u, dev, &qp))
			return 1;
		t.rtt_ns = qp.rtt_ns;
	}

	tune_qdisc(&t, words, sizeof(words));
	tune_rate(t.rate_bps, rate, sizeof(rate));
	print_obj_open(NULL);
	print_u64("rate_bps", NULL, t.rate_bps);
	print_str(NULL, "rate %s", rate);
	print_u64("rtt_ns", NULL, t.rtt_ns);
	print_u64(NULL, " rtt_us %llu", (t.rtt_ns + 500) / 1000);
	print_u64("bdp_bytes", " bdp %llu",
		  llround(tune_bdp(t.rate_bps, t.rtt_ns)));
	print_str("cc", " cc %s", t.dcqcn ? "dcqcn" : "nscc");
	if (dev)
		tune_print_qp(dev, &qp);
	print_str("qdisc", "\nqdisc %s\n", words);
	print_obj_close();
	return netdev ? tune_apply(netdev, words) : 0;
}
