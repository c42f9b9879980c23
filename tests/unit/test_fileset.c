/* fio's file set (bench/fileset.c) and its file engines
 * (engines/fileops.c): io sizes as fio's setup_files splits them, names
 * (NAME.JOB.FILE, filename_format), which file each io goes to
 * (file_service_type, openfiles) with the open/close order fio's
 * get_next_file gives, the options refused by name, and real jobs of
 * filecreate, filestat and filedelete in a temp directory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "bench/engine.h"
#include "bench/fileset.h"
#include "bench/job.h"
#include "fixture.h"

static void test_sizes(void **state)
{
	struct sb_job_opts o;
	struct sb_err err = { 0 };

	(void)state;
	sb_job_opts_init(&o);
	/* size / nrfiles; the first files a block more while whole blocks are left */
	o.size = 10;
	o.bs = 1;
	o.files.nrfiles = 4;
	assert_int_equal(sb_fileset_io_size(&o, 0), 3);
	assert_int_equal(sb_fileset_io_size(&o, 1), 3);
	assert_int_equal(sb_fileset_io_size(&o, 2), 2);
	assert_int_equal(sb_fileset_io_size(&o, 3), 2);
	/* filesize: each file that long; the job's size then at most their sum */
	assert_int_equal(sb_t_job_parse(&o, &err, "--ioengine=filestat", "--nrfiles=200", "--filesize=4k", NULL), 0);
	assert_int_equal(sb_fileset_io_size(&o, 7), 4096);
	assert_int_equal(o.size, 200 * 4096);
	assert_int_equal(o.files.openfiles, 200);
	assert_int_equal(sb_t_job_parse(&o, &err, "--ioengine=filestat", "--nrfiles=200", "--filesize=4k", "--size=40k",
			       "--openfiles=300", NULL), 0);
	assert_int_equal(o.size, 40960);
	assert_int_equal(o.files.openfiles, 200);
	/* filecreate without a size: a block per file (fio's get_file_size) */
	assert_int_equal(sb_t_job_parse(&o, &err, "--ioengine=filecreate", "--nrfiles=5", "--openfiles=1", NULL), 0);
	assert_int_equal(o.size, 5 * 4096);
	assert_int_equal(o.files.openfiles, 1);
	/* the others need one, as fio */
	assert_int_equal(sb_t_job_parse(&o, &err, "--ioengine=filedelete", "--nrfiles=5", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "you need to specify size="));
}

static void test_options(void **state)
{
	struct sb_job_opts o;
	struct sb_err err = { 0 };

	(void)state;
	/* several files a thread: only the file engines; refused by name otherwise */
	assert_int_equal(sb_t_job_parse(&o, &err, "--size=1m", "--nrfiles=2", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "not supported by stackbench job: nrfiles"));
	assert_int_equal(sb_t_job_parse(&o, &err, "--size=1m", "--nrfiles=1", "--nr_files=1", NULL), 0);
	assert_int_equal(sb_t_job_parse(&o, &err, "--size=1m", "--create_on_open=1", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "not supported by stackbench job: create_on_open"));
	assert_int_equal(sb_t_job_parse(&o, &err, "--size=1m", "--ioengine=filecreate", "--file_service_type=sequential:3",
			       "--nrfiles=3", NULL), 0);
	assert_int_equal(o.files.service, SB_FSERV_SEQ);
	assert_int_equal(o.files.service_nr, 3);
	/* fio's non-uniform kinds: parameter and center, fio's defaults and ranges */
	assert_int_equal(sb_t_job_parse(&o, &err, "--size=1m", "--file_service_type=zipf:1.2", NULL), 0);
	assert_int_equal(o.files.service, SB_FSERV_ZIPF);
	assert_true(o.files.service_val == 1.2 && o.files.service_center == -1);
	assert_int_equal(sb_t_job_parse(&o, &err, "--size=1m", "--file_service_type=pareto", NULL), 0);
	assert_true(o.files.service_val == 0.2);
	assert_int_equal(sb_t_job_parse(&o, &err, "--size=1m", "--file_service_type=gauss:5:0.25", NULL), 0);
	assert_int_equal(o.files.service, SB_FSERV_GAUSS);
	assert_true(o.files.service_val == 5 && o.files.service_center == 0.25);
	assert_int_equal(sb_t_job_parse(&o, &err, "--size=1m", "--file_service_type=zipf:1", NULL), -EINVAL);
	assert_int_equal(sb_t_job_parse(&o, &err, "--size=1m", "--file_service_type=pareto:1.5", NULL), -EINVAL);
	assert_int_equal(sb_t_job_parse(&o, &err, "--size=1m", "--file_service_type=normal:1:2", NULL), -EINVAL);
	assert_int_equal(sb_t_job_parse(&o, &err, "--size=1m", "--file_service_type=bogus", NULL), -EINVAL);
	assert_null(strstr(err.msg, "not supported"));
	assert_int_equal(sb_t_job_parse(&o, &err, "--size=1m", "--file_service_type=random:x", NULL), -EINVAL);
	assert_int_equal(sb_t_job_parse(&o, &err, "--size=1m", "--ioengine=filestat", "--stat_type=statx", NULL), 0);
	assert_int_equal(o.files.stat_type, 2);
	assert_int_equal(sb_t_job_parse(&o, &err, "--size=1m", "--stat_type=fstat", NULL), -EINVAL);
	/* filename= names the one file: nrfiles is its count, as fio */
	assert_int_equal(sb_t_job_parse(&o, &err, "--size=1m", "--ioengine=filestat", "--filename=x", "--nrfiles=4", NULL), 0);
	assert_int_equal(o.files.nrfiles, 1);
	/* fio's filename=A:B ('\\:' a ':' in a name): the file engines' set; refused by name for the others */
	assert_int_equal(sb_t_job_parse(&o, &err, "--size=1m", "--filename=a:b\\:c:d", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "not supported by stackbench job: filename"));
	assert_int_equal(sb_t_job_parse(&o, &err, "--size=1m", "--filename=a\\:c", NULL), 0);
	assert_string_equal(o.target, "a:c");
	assert_int_equal(sb_t_job_parse(&o, &err, "--filesize=4k", "--ioengine=filestat", "--directory=dd",
			       "--filename=a:b\\:c::/d", NULL), 0);
	assert_int_equal(o.files.nrfiles, 3);
	assert_int_equal(o.size, 3 * 4096);
	char buf[64];

	assert_int_equal(sb_fileset_name(&o, 0, 0, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "dd/a");
	assert_int_equal(sb_fileset_name(&o, 0, 1, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "dd/b:c");
	assert_int_equal(sb_fileset_name(&o, 0, 2, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/d");
}

static void test_names(void **state)
{
	struct sb_job_opts o;
	char buf[600];

	(void)state;
	sb_job_opts_init(&o);
	snprintf(o.target, sizeof(o.target), "d");
	snprintf(o.name, sizeof(o.name), "renamed");
	snprintf(o.section, sizeof(o.section), "t0");
	assert_int_equal(sb_fileset_name(&o, 2, 31, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "d/t0.2.31");
	/* no directory=: the bare name, as fio's; directory=.: ./NAME */
	snprintf(o.target, sizeof(o.target), ".");
	assert_int_equal(sb_fileset_name(&o, 2, 31, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "t0.2.31");
	snprintf(o.directory, sizeof(o.directory), ".");
	assert_int_equal(sb_fileset_name(&o, 2, 31, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "./t0.2.31");
	o.directory[0] = '\0';
	snprintf(o.target, sizeof(o.target), "d");
	/* fio's make_filename: keywords in any case, each everywhere; no client: $clientuid is empty */
	snprintf(o.files.format, sizeof(o.files.format), "$JobName-$filenum-$jobnum.$filenum$clientuid");
	assert_int_equal(sb_fileset_name(&o, 1, 7, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "d/t0-7-1.7");
	sb_engine_job_file(&o, 3, buf, sizeof(buf));
	assert_string_equal(buf, "d/t0-0-3.0");
	snprintf(o.files.format, sizeof(o.files.format), "fixed");
	assert_int_equal(sb_fileset_name(&o, 1, 7, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "d/fixed");
	assert_int_equal(sb_fileset_name(&o, 1, 7, buf, 5), -ENAMETOOLONG);
	/* filename= */
	o.create = true;
	snprintf(o.target, sizeof(o.target), "some/file");
	assert_int_equal(sb_fileset_name(&o, 1, 7, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "some/file");
}

/* the opens and closes, in order: "o0 c0 o1 ..." */
struct trace {
	char s[512];
	struct sb_fileset *fs;
};

static int t_open(void *arg, struct sb_fsfile *f)
{
	struct trace *t = arg;

	snprintf(t->s + strlen(t->s), sizeof(t->s) - strlen(t->s), "o%d ", (int)(f - t->fs->f));
	return 0;
}

static void t_close(void *arg, struct sb_fsfile *f)
{
	struct trace *t = arg;

	snprintf(t->s + strlen(t->s), sizeof(t->s) - strlen(t->s), "c%d ", (int)(f - t->fs->f));
}

/* n ios of one block over 3 files of 2 blocks each; the files picked */
static void run_set(struct sb_job_opts *o, unsigned n, char *picked, struct trace *t)
{
	struct sb_fileset fs;
	struct sb_err err = { 0 };
	unsigned i;
	int f;

	o->bs = 1;
	o->size = 0;
	o->filesize = 2;
	o->files.nrfiles = 3;
	o->ioengine = SB_IOENGINE_FILECREATE;
	if (!o->files.service_nr)
		o->files.service_nr = 1;
	if (!o->files.openfiles)
		o->files.openfiles = 3;
	snprintf(o->target, sizeof(o->target), ".");
	assert_int_equal(sb_fileset_init(&fs, o, 0, 1, &err), 0);
	memset(t, 0, sizeof(*t));
	t->fs = &fs;
	picked[0] = '\0';
	for (i = 0; i < n; i++) {
		f = sb_fileset_next(&fs, o, 1, t_open, t_close, t);
		assert_true(f >= 0 && f < 3);
		picked[i] = (char)('0' + f);
		picked[i + 1] = '\0';
	}
	sb_fileset_close_all(&fs, t_close, t);
	sb_fileset_free(&fs);
}

static void test_service(void **state)
{
	struct sb_job_opts o;
	struct trace t;
	char p[64];

	(void)state;
	sb_job_opts_init(&o);
	/* roundrobin: a file an io; the files stay open until the end */
	run_set(&o, 6, p, &t);
	assert_string_equal(p, "012012");
	assert_string_equal(t.s, "o0 o1 o2 c0 c1 c2 ");
	/* roundrobin:2, and a new pass (fio's time_based loop) once every file is done */
	o.files.service_nr = 2;
	run_set(&o, 8, p, &t);
	assert_string_equal(p, "00112200");
	assert_string_equal(t.s, "o0 o1 o2 c0 c1 c2 o0 c0 ");
	/* openfiles=1: fio's -EBUSY keeps the ios on the open file until it is done */
	sb_job_opts_init(&o);
	o.files.openfiles = 1;
	run_set(&o, 6, p, &t);
	assert_string_equal(p, "001122");
	assert_string_equal(t.s, "o0 c0 o1 c1 o2 c2 ");
	/* sequential: one file until it is done, closed when fio finds it so */
	sb_job_opts_init(&o);
	o.files.service = SB_FSERV_SEQ;
	run_set(&o, 6, p, &t);
	assert_string_equal(p, "001122");
	assert_string_equal(t.s, "o0 c0 o1 c1 o2 c2 ");
	/* random: every file gets its two ios in a pass, each opened once */
	sb_job_opts_init(&o);
	o.files.service = SB_FSERV_RANDOM;
	run_set(&o, 6, p, &t);
	assert_int_equal(strlen(p), 6);
	for (char c = '0'; c <= '2'; c++)
		assert_int_equal((int)(strchr(p, c) != NULL) + (int)(strchr(p, c) != strrchr(p, c)), 2);
	assert_int_equal(strlen(t.s), 18);
	/* zipf: a file whose io is done is closed and starts over (fio's fio_file_reset), never done */
	sb_job_opts_init(&o);
	o.files.service = SB_FSERV_ZIPF;
	o.files.service_val = 1.2;
	o.files.service_center = -1;
	run_set(&o, 40, p, &t);
	assert_int_equal(strlen(p), 40);
	assert_non_null(strstr(t.s, "c"));
}

/* a real job of engine e over n files in dir; its result */
static int job(const char *dir, const char *e, const char *extra, unsigned n, struct sb_job_result *res)
{
	struct sb_job_opts o;
	struct sb_err err = { 0 };
	char nr[32];
	int rc;

	snprintf(nr, sizeof(nr), "--nrfiles=%u", n);
	if (sb_t_job_parse(&o, &err, "--name=t", "--directory", dir, "--filesize=8k", "--bs=4k", "--ioengine", e, nr,
		  extra, NULL) < 0)
		fail_msg("%s: %s", e, err.msg);
	o.no_progress = true;
	if ((rc = sb_engine_run(&o, res, &err)) < 0)
		printf("%s: %s\n", e, err.msg);
	return rc;
}

static void test_engines(void **state)
{
	char dir[] = "/tmp/sb-test-fileset.XXXXXX", path[128];
	struct sb_job_result res;
	struct stat st;
	unsigned i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	/* filecreate, openfiles=1: each file made when opened (empty), 2 ios each,
	 * one latency sample a file (fio's FIO_NOSTATS: the ios give none) */
	assert_int_equal(job(dir, "filecreate", "--openfiles=1", 4, &res), 0);
	assert_int_equal(res.dir[0].io_bytes, 4 * 8192);
	assert_int_equal(res.dir[0].ios, 8);
	assert_int_equal(res.dir[0].clat.n, 4);
	assert_int_equal(res.dir[0].lat.n, 0);
	sb_job_result_release(&res);
	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/t.0.%u", dir, i);
		assert_int_equal(stat(path, &st), 0);
		assert_int_equal(st.st_size, 0);
		unlink(path);
	}
	/* filestat: the files laid out first (8 KiB each), then each stat'ed once */
	assert_int_equal(job(dir, "filestat", "--stat_type=statx", 3, &res), 0);
	assert_int_equal(res.dir[0].io_bytes, 3 * 8192);
	assert_int_equal(res.dir[0].clat.n, 3);
	sb_job_result_release(&res);
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/t.0.%u", dir, i);
		assert_int_equal(stat(path, &st), 0);
		assert_int_equal(st.st_size, 8192);
	}
	/* filedelete: laid out (they are there already), then each unlinked */
	assert_int_equal(job(dir, "filedelete", "--unlink=0", 3, &res), 0);
	assert_int_equal(res.dir[0].clat.n, 3);
	sb_job_result_release(&res);
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/t.0.%u", dir, i);
		assert_int_equal(stat(path, &st), -1);
	}
	/* a file that is not there: the job fails, its message naming the file */
	assert_int_equal(job(dir, "filestat", "--create_on_open=1", 1, &res), -ENOENT);
	sb_job_result_release(&res);
	/* falloc: a write allocates its range (the file grows), no data written */
	struct sb_job_opts o;
	struct sb_err err = { 0 };

	snprintf(path, sizeof(path), "%s/fa", dir);
	assert_int_equal(sb_t_job_parse(&o, &err, "--filename", path, "--size=64k", "--rw=write", "--ioengine=falloc",
			       "--direct=1", NULL), 0);
	assert_false(o.direct); /* fio's falloc opens without O_DIRECT */
	o.no_progress = true;
	assert_int_equal(sb_engine_run(&o, &res, &err), 0);
	assert_int_equal(res.dir[1].io_bytes, 65536);
	sb_job_result_release(&res);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 65536);
	assert_true(st.st_blocks * 512 >= 65536);
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_service),
		cmocka_unit_test(test_engines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
