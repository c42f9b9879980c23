/* The NUMA family: fio 3.33's numa_cpu_nodes and numa_mem_policy
 * (options.c str_numa_cpunodes_cb and str_numa_mpol_cb, backend.c
 * thread_main), through libnuma as fio's: the node lists are checked with
 * numa_parse_nodestring when the option is read (a node this machine does
 * not have is refused there, as fio refuses it), and each job thread runs
 * on the nodes' CPUs (numa_run_on_node_mask) and allocates as the policy
 * says (prefer:N, bind:LIST, interleave[:LIST], local, default) before its
 * first io. A build without libnuma refuses both options by name. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "bench/jobnuma.h"
#include "bench/jobopt.h"

#if SB_HAVE_NUMA
#include <numa.h>
#endif

enum { POL_DEFAULT, POL_PREFER, POL_BIND, POL_INTERLEAVE, POL_LOCAL };

#if SB_HAVE_NUMA
static int check_nodes(const char *opt, const char *list, struct sb_err *err)
{
	struct bitmask *m;

	if (numa_available() < 0)
		return sb_err_set(err, -EINVAL, "--%s: NUMA is not available on this system", opt);
	if (!(m = numa_parse_nodestring(list)))
		return sb_err_set(err, -EINVAL, "--%s: '%s': numa_parse_nodestring failed (nodes this system "
				  "does not have?)", opt, list);
	numa_free_nodemask(m);
	return 0;
}
#endif

static int cb_cpunodes(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
#if SB_HAVE_NUMA
	int rc;

	if (strlen(v) >= sizeof(j->numa.cpunodes))
		return sb_err_set(err, -EINVAL, "--%s: too long", o->name);
	if ((rc = check_nodes(o->name, v, err)) < 0)
		return rc;
	snprintf(j->numa.cpunodes, sizeof(j->numa.cpunodes), "%s", v);
	return 0;
#else
	(void)v;
	(void)j;
	return sb_err_set(err, -EINVAL, "not supported by stackbench job: %s (built without libnuma)", o->name);
#endif
}

static int cb_mpol(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
#if SB_HAVE_NUMA
	static const char *const pol[] = { "default", "prefer", "bind", "interleave", "local" };
	const char *list = strchr(v, ':');
	size_t n = list ? (size_t)(list - v) : strlen(v);
	unsigned i;
	int rc;

	for (i = 0; i < 5 && !(strlen(pol[i]) == n && !strncmp(v, pol[i], n)); i++)
		;
	if (i == 5)
		return sb_err_set(err, -EINVAL, "--%s: memory policy should be: default, prefer, bind, "
				  "interleave, local", o->name);
	list = list ? list + 1 : NULL;
	if (i == POL_PREFER && (!list || !*list || list[strspn(list, "0123456789")]))
		return sb_err_set(err, -EINVAL, "--%s: one node only for 'prefer'", o->name);
	if ((i == POL_LOCAL || i == POL_DEFAULT) && list)
		return sb_err_set(err, -EINVAL, "--%s: NO nodelist for 'local'", o->name);
	if (i == POL_BIND && !list)
		return sb_err_set(err, -EINVAL, "--%s: a nodelist is needed for 'bind'", o->name);
	if (i == POL_INTERLEAVE && !list)
		list = "all"; /* fio: the online nodes with memory */
	if (list && strlen(list) >= sizeof(j->numa.memnodes))
		return sb_err_set(err, -EINVAL, "--%s: too long", o->name);
	if ((i == POL_BIND || i == POL_INTERLEAVE) && (rc = check_nodes(o->name, list, err)) < 0)
		return rc;
	j->numa.mode = (uint8_t)i;
	j->numa.mpol = true;
	snprintf(j->numa.memnodes, sizeof(j->numa.memnodes), "%s", list ? list : "");
	return 0;
#else
	(void)v;
	(void)j;
	return sb_err_set(err, -EINVAL, "not supported by stackbench job: %s (built without libnuma)", o->name);
#endif
}

const struct jopt jopts_numa[] = {
	{ "numa_cpu_nodes", NULL, JT_CB, NOF, 0, 0, NULL, "run the job threads on these NUMA nodes' CPUs (0-1,3)",
	  cb_cpunodes },
	{ "numa_mem_policy", NULL, JT_CB, NOF, 0, 0, "default",
	  "memory policy: default, prefer:N, bind:NODES, interleave[:NODES], local", cb_mpol },
	{ NULL },
};

int sb_numa_thread(const struct sb_job_opts *o, struct sb_err *err)
{
#if SB_HAVE_NUMA
	struct bitmask *m;
	int rc = 0;

	if (!o->numa.cpunodes[0] && !o->numa.mpol)
		return 0;
	if (numa_available() < 0)
		return sb_err_set(err, -EINVAL, "NUMA is not supported on this system");
	if (o->numa.cpunodes[0]) {
		if (!(m = numa_parse_nodestring(o->numa.cpunodes)))
			return sb_err_set(err, -EINVAL, "numa_cpu_nodes=%s: no such nodes", o->numa.cpunodes);
		rc = numa_run_on_node_mask(m);
		numa_free_nodemask(m);
		if (rc < 0)
			return sb_err_sys(err, -errno, "numa_run_on_node_mask (numa_cpu_nodes=%s)", o->numa.cpunodes);
	}
	if (!o->numa.mpol)
		return 0;
	m = o->numa.memnodes[0] ? numa_parse_nodestring(o->numa.memnodes) : NULL;
	switch (o->numa.mode) {
	case POL_INTERLEAVE:
		if (m)
			numa_set_interleave_mask(m);
		break;
	case POL_BIND:
		if (m)
			numa_set_membind(m);
		break;
	case POL_LOCAL:
		numa_set_localalloc();
		break;
	case POL_PREFER:
		numa_set_preferred(atoi(o->numa.memnodes));
		break;
	default:
		break;
	}
	if (m)
		numa_free_nodemask(m);
	return 0;
#else
	(void)o;
	(void)err;
	return 0;
#endif
}
