/* The NUMA family (bench/jobnuma.c): fio's numa_cpu_nodes and
 * numa_mem_policy as fio parses them (policy words, the node list each
 * needs or forbids, nodes this machine lacks refused by libnuma), and a
 * real job on node 0 with its memory bound there; a build without libnuma
 * refuses both by name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "config.h"
#include "bench/engine.h"
#include "bench/job.h"
#include "fixture.h"

static void bad(const char *opt, const char *want)
{
	struct sb_job_opts *o = malloc(sizeof(*o));
	struct sb_err err = { 0 };

	assert_non_null(o);
	assert_int_equal(sb_t_job_parse(o, &err, "--filename=x", "--size=64k", opt, NULL), -EINVAL);
	if (!strstr(err.msg, want))
		fail_msg("%s: '%s' not in '%s'", opt, want, err.msg);
	free(o);
}

static void test_parse(void **state)
{
	struct sb_job_opts *o = malloc(sizeof(*o));
	struct sb_err err = { 0 };

	(void)state;
	assert_non_null(o);
	if (!SB_HAVE_NUMA) {
		bad("--numa_cpu_nodes=0", "not supported by stackbench job: numa_cpu_nodes");
		bad("--numa_mem_policy=local", "not supported by stackbench job: numa_mem_policy");
		free(o);
		return;
	}
	assert_int_equal(sb_t_job_parse(o, &err, "--filename=x", "--size=64k", "--numa_cpu_nodes=0",
			       "--numa_mem_policy=bind:0", NULL), 0);
	assert_string_equal(o->numa.cpunodes, "0");
	assert_string_equal(o->numa.memnodes, "0");
	assert_int_equal(sb_t_job_parse(o, &err, "--filename=x", "--size=64k", "--numa_mem_policy=interleave", NULL), 0);
	assert_string_equal(o->numa.memnodes, "all");
	assert_int_equal(sb_t_job_parse(o, &err, "--filename=x", "--size=64k", "--numa_mem_policy=prefer:0", NULL), 0);
	free(o);
	bad("--numa_mem_policy=prefer:0-1", "one node only");
	bad("--numa_mem_policy=prefer", "one node only");
	bad("--numa_mem_policy=local:0", "NO nodelist");
	bad("--numa_mem_policy=bind", "a nodelist is needed");
	bad("--numa_mem_policy=near:0", "should be: default, prefer");
	/* a node this machine does not have (node 999): fio refuses it as libnuma does */
	bad("--numa_cpu_nodes=999", "numa_parse_nodestring failed");
}

static void test_run(void **state)
{
	char dir[] = "/tmp/sb-test-numa.XXXXXX", path[64];
	struct sb_job_opts o;
	struct sb_job_result res;
	struct sb_err err = { 0 };

	(void)state;
	if (!SB_HAVE_NUMA)
		skip();
	assert_non_null(mkdtemp(dir));
	if (sb_t_job_parse(&o, &err, "--name=n", "--directory", dir, "--size=256k", "--rw=write", "--numa_cpu_nodes=0",
		  "--numa_mem_policy=bind:0", NULL) < 0)
		fail_msg("%s", err.msg);
	o.no_progress = true;
	if (sb_engine_run(&o, &res, &err) < 0)
		fail_msg("%s", err.msg);
	assert_int_equal(res.dir[SB_DIR_WRITE].io_bytes, 256 << 10);
	sb_job_result_release(&res);
	snprintf(path, sizeof(path), "%s/n.0.0", dir);
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
