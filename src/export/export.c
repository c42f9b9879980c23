/* The export layer (after mount): the vtable, the order of its steps and
 * what it reports. Build: run directory, link (link.c), iperf3, then each
 * protocol's server and client mounts. */
#include "export/export_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/stack.h"
#include "util/fs.h"
#include "util/json.h"
#include "util/log.h"

void sb_export_rundir_path(const char *stack, char *out, size_t len)
{
	snprintf(out, len, "%s/export-%s", sb_state_dir(), stack);
}

static void protocols_text(const struct sb_export_spec *e, char *out, size_t len)
{
	size_t n = 0;
	unsigned i;

	out[0] = '\0';
	for (i = 0; sb_export_protocols[i] && n < len; i++)
		if (e->protocols & (1u << i))
			n += snprintf(out + n, len - n, "%s%s", n ? ", " : "", sb_export_protocols[i]);
}

static void export_plan(const struct sb_layer *l, struct sb_plan *p)
{
	const struct sb_export_spec *e = sb_export_spec_of(l->spec);
	struct sb_export_net n;
	char protos[64];

	sb_export_net_names(l->spec->name, &n);
	protocols_text(e, protos, sizeof(protos));
	sb_plan_build(p, "export: network namespaces %s and %s, veth %s <-> %s (%s <-> %s)%s%s%s%s",
		      n.srv_ns, n.cli_ns, n.srv_if, n.cli_if, n.srv_addr, n.cli_addr,
		      e->link.rate_bps ? ", tc tbf rate " : ", unshaped", e->link.rate,
		      e->link.delay_ns ? ", netem delay" : "", "");
	sb_plan_build(p, "export: measure the link with iperf3 both ways (2 x 3 s)");
	sb_plan_build(p, "export: private servers and client mounts: %s", protos);
	sb_plan_teardown(p, "export: unmount the clients, stop the daemons, remove the qdiscs, the veth "
			 "pair, the namespaces and the run directory (keys included)");
}

static int export_build(struct sb_layer *l, struct sb_err *err)
{
	const struct sb_export_spec *e = sb_export_spec_of(l->spec);
	struct sb_state *st = &l->stack->state;
	struct sb_export_priv *p;
	int rc;

	if (!l->below || !l->below->mountpoint[0])
		return sb_err_set(err, -EINVAL, "export needs the mounted filesystem below it");
	p = calloc(1, sizeof(*p));
	if (!p)
		return sb_err_set(err, -ENOMEM, "out of memory");
	l->priv = p;
	sb_export_net_names(l->spec->name, &p->net);
	if (sb_export_netns_exists(p->net.srv_ns) || sb_export_netns_exists(p->net.cli_ns))
		return sb_err_set(err, -EBUSY, "network namespace %s or %s exists already (an earlier run? "
				  "`stackbench teardown --all`)", p->net.srv_ns, p->net.cli_ns);
	sb_export_rundir_path(l->spec->name, p->rundir, sizeof(p->rundir));
	rc = sb_state_add(st, "export", "rundir", p->rundir, NULL, err);
	if (!rc && mkdir(p->rundir, 0700))
		rc = sb_err_sys(err, -errno, "cannot create %s", p->rundir);
	if (!rc)
		rc = sb_export_link_build(st, e, p, err);
	if (!rc)
		rc = sb_export_link_measure(st, p, err);
	if (!rc && (e->protocols & SB_EXPORT_SSHFS))
		rc = sb_export_sshfs_build(st, e, l->below->mountpoint, p, err);
	if (!rc && (e->protocols & SB_EXPORT_NFS))
		rc = sb_export_nfs_build(st, e, l->below->mountpoint, p, err);
	if (!rc && (e->protocols & SB_EXPORT_SMB))
		rc = sb_export_smb_build(st, e, l->below->mountpoint, p, err);
	return rc;
}

unsigned sb_export_targets(const struct sb_layer *l, const struct sb_export_target **t)
{
	const struct sb_export_priv *p = l ? l->priv : NULL;

	*t = p ? p->t : NULL;
	return p ? p->ntargets : 0;
}

struct json_object *sb_export_link_json(const struct sb_layer *l)
{
	const struct sb_export_priv *p = l->priv;
	const struct sb_export_link_spec *ls = &sb_export_spec_of(l->spec)->link;
	struct json_object *o = json_object_new_object(), *m = json_object_new_object();

	json_object_object_add(o, "rate", json_object_new_string(ls->rate[0] ? ls->rate : "unshaped"));
	json_object_object_add(o, "rate_bps", json_object_new_int64((int64_t)ls->rate_bps));
	json_object_object_add(o, "delay_ns", json_object_new_int64((int64_t)ls->delay_ns));
	json_object_object_add(m, "tool", json_object_new_string("iperf3"));
	json_object_object_add(m, "to_server_bps", json_object_new_double(p ? p->to_server_bps : 0));
	json_object_object_add(m, "to_client_bps", json_object_new_double(p ? p->to_client_bps : 0));
	json_object_object_add(o, "measured", m);
	return o;
}

static int export_describe(const struct sb_layer *l, struct json_object *out, struct sb_err *err)
{
	const struct sb_export_priv *p = l->priv;
	struct json_object *arr = json_object_new_array();
	unsigned i;

	json_object_object_add(out, "link", sb_export_link_json(l));
	for (i = 0; p && i < p->ntargets; i++)
		json_object_array_add(arr, sb_json_strings("protocol", p->t[i].proto, "label", p->t[i].label,
							   "options", p->t[i].options, "mountpoint", p->t[i].mountpoint,
							   NULL));
	json_object_object_add(out, "clients", arr);
	return 0;
}

static void export_release(struct sb_layer *l)
{
	free(l->priv);
}

/* bench STACK on a stack `build` left up: not for exports (the daemons
 * belong to the run that started them). */
static int export_attach(struct sb_layer *l, const struct sb_state *st, struct sb_err *err)
{
	return sb_err_set(err, -ENOTSUP, "an exported stack is measured by build-and-test only, "
			  "not by `bench` on a stack `build` left up");
}

static bool export_wanted(const struct sb_stack_spec *spec)
{
	return sb_export_spec_of(spec)->enabled;
}

/* What the build runs, by protocol (the exec sites of link.c, sshfs.c,
 * smb.c, nfs.c; mount(8) runs /sbin/mount.TYPE); 0: every export. */
static const struct {
	uint32_t proto;
	const char *name, *package;
} export_runs[] = {
	{ 0, "ip", "iproute2" },
	{ 0, "iperf3", "iperf3" },
	{ SB_EXPORT_SSHFS, "/usr/sbin/sshd", "openssh-server" },
	{ SB_EXPORT_SSHFS, "ssh-keygen", "openssh-client" },
	{ SB_EXPORT_SSHFS, "sshfs", "sshfs" },
	{ SB_EXPORT_NFS, "/usr/sbin/rpc.nfsd", "nfs-kernel-server" },
	{ SB_EXPORT_NFS, "/usr/sbin/rpc.mountd", "nfs-kernel-server" },
	{ SB_EXPORT_NFS, "/usr/sbin/exportfs", "nfs-kernel-server" },
	{ SB_EXPORT_NFS, "/sbin/mount.nfs4", "nfs-common" },
	{ SB_EXPORT_SMB, "smbd", "samba" },
	{ SB_EXPORT_SMB, "smbpasswd", "samba-common-bin" },
	{ SB_EXPORT_SMB, "ss", "iproute2" },
	{ SB_EXPORT_SMB, "/sbin/mount.cifs", "cifs-utils" },
};

static void export_programs(const struct sb_stack_spec *spec, struct sb_program_needs *n)
{
	const struct sb_export_spec *e = sb_export_spec_of(spec);
	unsigned i;

	for (i = 0; i < sizeof(export_runs) / sizeof(export_runs[0]); i++)
		if (!export_runs[i].proto || (e->protocols & export_runs[i].proto))
			sb_program_need(n, export_runs[i].name, export_runs[i].package);
	if (e->link.rate_bps || e->link.delay_ns)
		sb_program_need(n, "tc", "iproute2");
}

/* The SSH ciphers its sshfs rows use (their ceiling, export_rows.c). */
static void export_ciphers(const struct sb_stack_spec *spec, struct sb_cipher_wants *w)
{
	const struct sb_export_spec *e = sb_export_spec_of(spec);
	unsigned i;

	if (!(e->protocols & SB_EXPORT_SSHFS))
		return;
	for (i = 0; sb_export_ssh_ciphers[i] && w->nssh + 1 < sizeof(w->ssh) / sizeof(w->ssh[0]); i++)
		if (e->sshfs.ciphers & (1u << i))
			w->ssh[w->nssh++] = sb_export_ssh_ciphers[i];
}

/* No .needs: network namespaces, veth and tc are in every kernel this runs
 * on (host and the throwaway one); what a protocol's server needs (nfsd)
 * is checked when it is started, with why. .leftovers: what a killed run
 * left when its state file is gone (leftovers.c). */
const struct sb_layer_ops sb_layer_export = {
	.name = "export",
	.spec = &sb_export_part,
	.order = SB_ORDER_MOUNT + 5,   /* over the mounted filesystem */
	.wanted = export_wanted,
	.programs = export_programs,
	.plan = export_plan,
	.build = export_build,
	.leftovers = sb_export_leftovers,
	.describe = export_describe,
	.teardown = sb_export_obj_teardown,
	.exists = sb_export_obj_exists,
	.release = export_release,
	.attach = export_attach,
	.ciphers = export_ciphers,
};

const struct sb_layer *sb_export_layer(const struct sb_stack *s)
{
	for (unsigned i = 0; i < s->nlayers; i++)
		if (s->layers[i].ops == &sb_layer_export)
			return &s->layers[i];
	return NULL;
}
