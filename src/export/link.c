/* The link: a server and a client network namespace, a veth pair between
 * them with a private /30, shaped by tc (tbf for the rate, netem for the
 * delay) on both ends, and measured with iperf3 both ways once shaped. */
#include "export/export_int.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>
#include <libmount/libmount.h>

#include "util/log.h"

#define IPERF_PORT "5201"

static int ip(const char *const *argv, struct sb_err *err)
{
	return sb_export_cmd(NULL, argv, NULL, 0, 30000, err);
}

static int make_ns(struct sb_state *st, const char *ns, struct sb_err *err)
{
	const char *add[] = { "ip", "netns", "add", ns, NULL };
	const char *lo[] = { "ip", "-n", ns, "link", "set", "lo", "up", NULL };
	int rc = sb_state_add(st, "export", "netns", ns, NULL, err);

	if (!rc)
		rc = ip(add, err);
	if (!rc)
		rc = ip(lo, err);
	return rc;
}

/* tc on one end: root netem (delay) with tbf (rate) under it, or either. */
static int shape(struct sb_state *st, const char *ns, const char *ifn,
		 const struct sb_export_link_spec *l, struct sb_err *err)
{
	char id[96], rate[32], burst[32], delay[32];
	unsigned long long b = l->rate_bps / 8 / 100;   /* 10 ms at the rate */
	const char *netem[] = { "tc", "-n", ns, "qdisc", "add", "dev", ifn, "root", "handle", "1:",
				"netem", "delay", delay, "limit", "100000", NULL };
	const char *tbf[] = { "tc", "-n", ns, "qdisc", "add", "dev", ifn, "parent", "1:1", "handle", "10:",
			      "tbf", "rate", rate, "burst", burst, "latency", "50ms", NULL };
	const char *tbf_root[] = { "tc", "-n", ns, "qdisc", "add", "dev", ifn, "root", "handle", "10:",
				   "tbf", "rate", rate, "burst", burst, "latency", "50ms", NULL };
	int rc;

	if (!l->rate_bps && !l->delay_ns)
		return 0;
	snprintf(id, sizeof(id), "%s %s", ns, ifn);
	snprintf(rate, sizeof(rate), "%llubit", (unsigned long long)l->rate_bps);
	snprintf(burst, sizeof(burst), "%llub", b < 131072 ? 131072ULL : b);   /* >= one GSO packet */
	snprintf(delay, sizeof(delay), "%lluus", (unsigned long long)(l->delay_ns / 1000));
	rc = sb_state_add(st, "export", "qdisc", id, NULL, err);
	if (rc)
		return rc;
	if (l->delay_ns) {
		rc = ip(netem, err);
		if (rc || !l->rate_bps)
			return rc;
		return ip(tbf, err);
	}
	return ip(tbf_root, err);
}

/* `ip netns add` makes /run/netns a mount (a shared bind of itself) when
 * it is none; where that is ours, it is recorded and undone once empty. */
static int netns_dir(struct sb_state *st, struct sb_err *err)
{
	struct libmnt_table *tb = mnt_new_table_from_file("/proc/self/mountinfo");
	bool mounted = tb && mnt_table_find_target(tb, "/run/netns", MNT_ITER_BACKWARD);

	mnt_unref_table(tb);
	if (mounted)
		return 0;
	return sb_state_add(st, "export", "netnsdir", "/run/netns",
			    access("/run/netns", F_OK) ? "made" : "", err);
}

int sb_export_link_build(struct sb_state *st, const struct sb_export_spec *e,
			 struct sb_export_priv *p, struct sb_err *err)
{
	const struct sb_export_net *n = &p->net;
	char id[96], sa[24], ca[24];
	const char *mod[] = { "veth", "sch_tbf", "sch_netem", NULL };
	const char *veth[] = { "ip", "-n", n->srv_ns, "link", "add", n->srv_if, "type", "veth",
			       "peer", "name", n->cli_if, "netns", n->cli_ns, NULL };
	const char *saddr[] = { "ip", "-n", n->srv_ns, "addr", "add", sa, "dev", n->srv_if, NULL };
	const char *caddr[] = { "ip", "-n", n->cli_ns, "addr", "add", ca, "dev", n->cli_if, NULL };
	const char *sup[] = { "ip", "-n", n->srv_ns, "link", "set", n->srv_if, "up", NULL };
	const char *cup[] = { "ip", "-n", n->cli_ns, "link", "set", n->cli_if, "up", NULL };
	int rc;

	sb_export_modprobe(mod);   /* built in, or absent: said below */
	rc = netns_dir(st, err);
	if (!rc)
		rc = make_ns(st, n->srv_ns, err);
	if (!rc)
		rc = make_ns(st, n->cli_ns, err);
	if (rc)
		return rc;
	snprintf(id, sizeof(id), "%s %s", n->srv_ns, n->srv_if);
	rc = sb_state_add(st, "export", "veth", id, n->cli_if, err);
	if (!rc && (rc = ip(veth, err)))
		sb_err_prefix(err, "this kernel cannot make a veth pair (CONFIG_VETH): ");
	snprintf(sa, sizeof(sa), "%s/30", n->srv_addr);
	snprintf(ca, sizeof(ca), "%s/30", n->cli_addr);
	if (!rc)
		rc = ip(saddr, err);
	if (!rc)
		rc = ip(caddr, err);
	if (!rc)
		rc = ip(sup, err);
	if (!rc)
		rc = ip(cup, err);
	if (!rc && (rc = shape(st, n->srv_ns, n->srv_if, &e->link, err)) == 0)
		rc = shape(st, n->cli_ns, n->cli_if, &e->link, err);
	if (rc && strstr(err->msg, "qdisc"))
		sb_err_prefix(err, "tc (tbf/netem: CONFIG_NET_SCH_TBF, CONFIG_NET_SCH_NETEM): ");
	return rc;
}

/* bits per second the receiver saw, from iperf3 -J. */
static int iperf_once(const struct sb_export_priv *p, bool reverse, double *bps, struct sb_err *err)
{
	const char *argv[] = { "iperf3", "-c", p->net.srv_addr, "-p", IPERF_PORT, "-t", "3", "-O", "1",
			       "-J", reverse ? "-R" : NULL, NULL };
	struct json_object *j, *end, *sum, *v;
	static char out[256 * 1024];
	int rc = -EIO, i;

	/* the server may not listen yet, or still be closing the last test */
	for (i = 0; i < 100; i++) {
		struct sb_err e = { 0 };

		rc = sb_export_cmd(p->net.cli_ns, argv, out, sizeof(out), 30000, &e);
		if (!rc || (!strstr(out, "refused") && !strstr(out, "busy")))
			break;
		usleep(200000);
	}
	j = json_tokener_parse(out);
	if (j && json_object_object_get_ex(j, "error", &v)) {
		rc = sb_err_set(err, -EIO, "iperf3 between the namespaces: %s", json_object_get_string(v));
		json_object_put(j);
		return rc;
	}
	if (rc) {
		json_object_put(j);
		return sb_err_set(err, rc, "iperf3 between the namespaces failed: %.300s", out);
	}
	if (!j || !json_object_object_get_ex(j, "end", &end) ||
	    !json_object_object_get_ex(end, "sum_received", &sum) ||
	    !json_object_object_get_ex(sum, "bits_per_second", &v)) {
		json_object_put(j);
		return sb_err_set(err, -EIO, "iperf3 -J: no end.sum_received.bits_per_second in its output");
	}
	*bps = json_object_get_double(v);
	json_object_put(j);
	return 0;
}

static bool log_has(const char *path, const char *needle)
{
	char buf[4096];
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return strstr(buf, needle) != NULL;
}

int sb_export_link_measure(struct sb_state *st, struct sb_export_priv *p, struct sb_err *err)
{
	const char *argv[] = { "iperf3", "-s", "-B", p->net.srv_addr, "-p", IPERF_PORT, "--forceflush", NULL };
	char log[SB_PATH_MAX + 16], id[64];
	struct sb_state_obj obj = { "export", "daemon", "iperf3", "" };
	struct sb_err terr = { 0 };
	unsigned i;
	int rc;

	snprintf(log, sizeof(log), "%s/iperf3.log", p->rundir);
	rc = sb_export_daemon(st, "iperf3", p->net.srv_ns, argv, log, id, sizeof(id), err);
	if (rc)
		return rc;
	/* a loaded machine (or the throwaway kernel) may take seconds to start it */
	for (i = 0; i < 600 && !log_has(log, "Server listening") && sb_export_proc_alive(id); i++)
		usleep(50000);
	sb_progress("export: measuring the link with iperf3 (2 x 3 s)");
	rc = iperf_once(p, false, &p->to_server_bps, err);
	if (!rc)
		rc = iperf_once(p, true, &p->to_client_bps, err);
	sb_progress_done();
	snprintf(obj.extra, sizeof(obj.extra), "%s", id);
	if (sb_export_proc_stop(id, "iperf3", &terr))
		sb_warn("%s", terr.msg);
	if (!rc)
		sb_info("export: link measured %.0f Mbit/s to the server, %.0f Mbit/s to the client",
			p->to_server_bps / 1e6, p->to_client_bps / 1e6);
	return rc;
}
