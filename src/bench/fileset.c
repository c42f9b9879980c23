/* fio's file set of a job thread (bench/fileset.h): the files family's
 * options (nrfiles, openfiles, create_on_open, file_service_type and
 * filestat's stat_type), the files' names and io sizes as fio's
 * setup_files sets them, and which file each io goes to, as fio's
 * get_next_file (io_u.c) picks it. */
#include "bench/fileset.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/ioengine.h"
#include "bench/jobopt.h"

#define FSERV_SHIFT 10 /* fio's FIO_FSERVICE_SHIFT */
#define ALL_DONE (-0x10000) /* pick: every file's io is issued (not an errno) */

/* fio's str_fst_cb for zipf[:theta], pareto[:h], normal/gauss[:dev], each
 * [:center] (split_parse_distr), with fio's defaults and ranges */
static int service_distr(const char *v, size_t n, struct sb_job_opts *j, struct sb_err *err)
{
	uint8_t k = j->files.service;
	double val = k == SB_FSERV_ZIPF ? 1.1 : k == SB_FSERV_PARETO ? 0.2 : 0.0, c = -1;
	char *end;

	if (v[n] == ':') {
		val = strtod(v + n + 1, &end);
		if (end == v + n + 1 || (*end && *end != ':'))
			return sb_err_set(err, -EINVAL, "--file_service_type=%s: not a number", v);
		if (*end == ':') {
			const char *s = end + 1;

			c = strtod(s, &end);
			if (end == s || *end || c < 0 || c > 1)
				return sb_err_set(err, -EINVAL, "--file_service_type=%s: distribution center out "
						  "of range (0 <= center <= 1.0)", v);
		}
	}
	if (k == SB_FSERV_ZIPF && val == 1.0)
		return sb_err_set(err, -EINVAL, "--file_service_type=%s: zipf theta must be different than 1.0", v);
	if (k == SB_FSERV_PARETO && (val <= 0 || val >= 1))
		return sb_err_set(err, -EINVAL, "--file_service_type=%s: pareto input out of range (0 < input < 1.0)", v);
	if (k == SB_FSERV_GAUSS && (val < 0 || val >= 100))
		return sb_err_set(err, -EINVAL, "--file_service_type=%s: normal deviation out of range (0 <= input < 100.0)", v);
	j->files.service_val = val;
	j->files.service_center = c;
	return 0;
}

/* fio's file_service_type=TYPE[:N]: roundrobin (default), sequential,
 * random, N ios to a file before the next is picked; or the non-uniform
 * zipf, pareto, normal (gauss) with their parameter */
static int set_service(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	static const char *const kinds[] = { "roundrobin", "sequential", "random", "zipf", "pareto", "normal", "gauss" };
	size_t n = strcspn(v, ":");
	unsigned i;
	char *end;

	(void)o;
	for (i = 0; i < 7; i++)
		if (strlen(kinds[i]) == n && !strncmp(v, kinds[i], n))
			break;
	if (i == 7)
		return sb_err_set(err, -EINVAL, "--file_service_type: '%s' is not roundrobin, sequential, "
				  "random, zipf, pareto, normal or gauss", v);
	j->files.service = (uint8_t)(i == 6 ? SB_FSERV_GAUSS : i);
	j->files.service_nr = 1;
	if (i >= 3)
		return service_distr(v, n, j, err);
	if (v[n] == ':') {
		/* fio's atoi: a bad number is 0, which it then treats as 1 (left = nr - 1 wraps) */
		unsigned long long nr = strtoull(v + n + 1, &end, 10);

		if (*end || !nr || nr > UINT32_MAX)
			return sb_err_set(err, -EINVAL, "--file_service_type=%s: ':N' must be a whole number "
					  "1..%u", v, UINT32_MAX);
		j->files.service_nr = (uint32_t)nr;
	}
	return 0;
}

static int set_stat_type(const struct jopt *o, const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	static const char *const types[] = { "stat", "lstat", "statx" };
	unsigned i;

	(void)o;
	for (i = 0; i < 3; i++)
		if (!strcmp(v, types[i])) {
			j->files.stat_type = (uint8_t)i;
			return 0;
		}
	return sb_err_set(err, -EINVAL, "--stat_type: '%s' is not stat, lstat or statx", v);
}

const struct jopt jopts_files[] = {
	{ "nrfiles", "nr_files", JT_U32, F(files.nrfiles), 1, 1u << 24, "1",
	  "files per job thread, NAME.THREAD.FILE (more than one: the file engines only)", NULL },
	{ "openfiles", NULL, JT_U32, F(files.openfiles), 0, UINT32_MAX, NULL,
	  "most files open at once (default nrfiles)", NULL },
	{ "create_on_open", NULL, JT_BOOL, F(files.create_on_open), 0, 0, "0",
	  "create a file when it is opened (not laid out before the job)", NULL },
	{ "file_service_type", NULL, JT_CB, NOF, 0, 0, "roundrobin",
	  "which file the next io goes to: roundrobin, sequential, random ([:N] ios each), zipf[:theta], "
	  "pareto[:h], normal[:dev] ([:center])", set_service },
	{ "filename_format", NULL, JT_STR, F(files.format), 0, 0, "$jobname.$jobnum.$filenum",
	  "names of the job's files: $jobname, $jobnum (thread), $filenum, $clientuid", NULL },
	{ "stat_type", NULL, JT_CB, NOF, 0, 0, "stat", "filestat: stat, lstat or statx", set_stat_type },
	{ NULL, NULL, 0, NOF, 0, 0, NULL, NULL, NULL },
};

/* Name number i of a ':' list into buf: 1, or 0 when there are fewer */
static int list_name(const char *v, unsigned i, char *buf, size_t len)
{
	unsigned n = 0;
	size_t o = 0;
	bool in = false;

	for (; *v; v++) {
		if (*v == ':') {
			if (in && n++ == i)
				break;
			in = false;
			continue;
		}
		in = true;
		if (*v == '\\' && v[1] == ':')
			v++;
		if (n == i && o + 1 < len)
			buf[o++] = *v;
	}
	if (len)
		buf[o] = '\0';
	return n > i || (n == i && in) ? 1 : 0;
}

static unsigned list_count(const char *v)
{
	char b[2];
	unsigned n = 0;

	while (list_name(v, n, b, sizeof(b)))
		n++;
	return n;
}

int sb_fileset_list(const char *v, struct sb_job_opts *j, struct sb_err *err)
{
	j->files.list[0] = '\0';
	if (list_count(v) < 2)
		return 0;
	if (strlen(v) >= sizeof(j->files.list))
		return sb_err_set(err, -EINVAL, "--filename: '%s' is longer than %zu characters", v,
				  sizeof(j->files.list) - 1);
	snprintf(j->files.list, sizeof(j->files.list), "%s", v);
	list_name(v, 0, j->target, sizeof(j->target));
	return 1;
}

static bool file_engine(enum sb_ioengine e)
{
	return e == SB_IOENGINE_FILECREATE || e == SB_IOENGINE_FILESTAT || e == SB_IOENGINE_FILEDELETE;
}

uint64_t sb_fileset_io_size(const struct sb_job_opts *o, unsigned i)
{
	uint32_t n = o->files.nrfiles ? o->files.nrfiles : 1;
	uint64_t fs, extra;

	if (o->filesize)
		return o->filesize;
	if (!o->size)
		return o->bs; /* filecreate's get_file_size: a block (the others need a size) */
	/* fio: size / nrfiles, the first files a block more while blocks are left over */
	fs = o->size / n;
	extra = (o->size - fs * n) / o->bs;
	return fs + (i < extra ? o->bs : 0);
}

/* fio's make_filename: each keyword in turn, every place it is found
 * (in any case) replaced; $clientuid is empty outside fio's client mode */
static int expand(const char *fmt, const char *job, unsigned t, unsigned i, char *buf, size_t len)
{
	static const char *const keys[] = { "$jobname", "$jobnum", "$filenum", "$clientuid" };
	char val[32], tmp[600];
	const char *v;
	unsigned k, guard;
	char *at;

	if ((size_t)snprintf(buf, len, "%s", fmt) >= len)
		return -ENAMETOOLONG;
	for (k = 0; k < 4; k++)
		for (guard = 0; (at = strcasestr(buf, keys[k])) && guard < 64; guard++) {
			snprintf(val, sizeof(val), "%u", k == 1 ? t : i);
			v = k == 0 ? job : k == 3 ? "" : val;
			if ((size_t)snprintf(tmp, sizeof(tmp), "%.*s%s%s", (int)(at - buf), buf, v,
					     at + strlen(keys[k])) >= sizeof(tmp) || strlen(tmp) >= len)
				return -ENAMETOOLONG;
			memcpy(buf, tmp, strlen(tmp) + 1);
		}
	return 0;
}

int sb_fileset_name(const struct sb_job_opts *o, unsigned t, unsigned i, char *buf, size_t len)
{
	char name[512];

	if (o->create && o->files.list[0]) {
		/* as finish_job joins directory= and filename= */
		list_name(o->files.list, i, name, sizeof(name));
		return (size_t)snprintf(buf, len, "%s%s%s", o->directory[0] && name[0] != '/' ? o->directory : "",
					o->directory[0] && name[0] != '/' ? "/" : "", name) >= len ? -ENAMETOOLONG : 0;
	}
	if (o->create)
		return (size_t)snprintf(buf, len, "%s", o->target) >= len ? -ENAMETOOLONG : 0;
	return sb_fileset_dir_name(o, t, i, buf, len);
}

int sb_fileset_dir_name(const struct sb_job_opts *o, unsigned t, unsigned i, char *buf, size_t len)
{
	const char *job = o->section[0] ? o->section : o->name;
	char name[600];
	int n;

	/* fio: DIR/NAME with directory=, else NAME alone (the target "." stackbench sets then) */
	bool bare = !o->directory[0] && !strcmp(o->target, ".");

	if (o->files.format[0])
		n = expand(o->files.format, job, t, i, name, sizeof(name)) < 0 ? -1
			: snprintf(buf, len, "%s%s%s", bare ? "" : o->target, bare ? "" : "/", name);
	else
		n = snprintf(buf, len, "%s%s%s.%u.%u", bare ? "" : o->target, bare ? "" : "/", job, t, i);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int sb_fileset_finish(struct sb_job_opts *j, struct sb_err *err)
{
	uint64_t sum = 0, s;
	unsigned i;

	if (!file_engine(j->ioengine)) {
		if (j->files.list[0])
			return sb_err_set(err, -EINVAL, "not supported by stackbench job: filename=%s (fio's ':' "
					  "separates several files: the file engines filecreate, filestat, filedelete "
					  "take them; write '\\:' for a ':' in a name)", j->files.list);
		if (j->files.nrfiles > 1)
			return sb_err_set(err, -EINVAL, "not supported by stackbench job: nrfiles=%u with "
					  "ioengine=%s (several files a thread: the file engines filecreate, "
					  "filestat, filedelete)", j->files.nrfiles, sb_ioengine_name(j->ioengine));
		/* fio opens such a file O_CREAT and never lays it out: reads find nothing */
		if (j->files.create_on_open)
			return sb_err_set(err, -EINVAL, "not supported by stackbench job: create_on_open=1 with "
					  "ioengine=%s (the file engines take it)", sb_ioengine_name(j->ioengine));
		return 0;
	}
	if (j->create) /* fio: filename= names the files, nrfiles is their count */
		j->files.nrfiles = j->files.list[0] ? list_count(j->files.list) : 1;
	if (!j->files.nrfiles)
		j->files.nrfiles = 1;
	if (!j->files.openfiles || j->files.openfiles > j->files.nrfiles)
		j->files.openfiles = j->files.nrfiles; /* fio's fixup_options */
	if (!j->files.service_nr)
		j->files.service_nr = 1;
	if (!j->size && !j->filesize && j->ioengine != SB_IOENGINE_FILECREATE)
		return sb_err_set(err, -EINVAL, "job %s: you need to specify size= (as fio, for its files "
				  "NAME.N.FILE)", j->name);
	for (i = 0; i < j->files.nrfiles; i++) {
		s = sb_fileset_io_size(j, i);
		sum = s > UINT64_MAX - sum ? UINT64_MAX : sum + s;
	}
	/* fio's setup_files: size, unless the files hold less */
	if (!j->size || j->size > sum)
		j->size = sum;
	if (j->size < j->bs)
		return sb_err_set(err, -EINVAL, "job %s: blocksize is larger than data set range (as fio)", j->name);
	return 0;
}

int sb_fileset_init(struct sb_fileset *fs, const struct sb_job_opts *o, unsigned t, uint64_t seed,
		    struct sb_err *err)
{
	char name[600];
	unsigned i;

	uint64_t nr, off;

	memset(fs, 0, sizeof(*fs));
	fs->cur = -1;
	fs->n = o->files.nrfiles ? o->files.nrfiles : 1;
	rng_seed(&fs->rng, seed);
	/* fio's init_rand_file_service: nrfiles << 10 ranges, no hash */
	nr = (uint64_t)fs->n << FSERV_SHIFT;
	off = o->files.service_center >= 0 && o->files.service != SB_FSERV_GAUSS
		? (uint64_t)((double)nr * o->files.service_center) : rng_next(&fs->rng) % nr;
	if (o->files.service == SB_FSERV_ZIPF)
		sb_zipf_init(&fs->zipf, nr, o->files.service_val, off, false);
	else if (o->files.service == SB_FSERV_PARETO)
		sb_pareto_init(&fs->zipf, nr, o->files.service_val, off, false);
	else if (o->files.service == SB_FSERV_GAUSS)
		sb_gauss_init(&fs->gauss, nr, o->files.service_val, o->files.service_center >= 0
			      ? (uint64_t)((int64_t)((double)nr * (o->files.service_center - 0.5)) + (int64_t)nr) : 0, false);
	fs->f = calloc(fs->n, sizeof(*fs->f));
	if (!fs->f)
		return sb_err_set(err, -ENOMEM, "out of memory");
	for (i = 0; i < fs->n; i++) {
		fs->f[i].fd = -1;
		fs->f[i].io_size = sb_fileset_io_size(o, i);
		if (sb_fileset_name(o, t, i, name, sizeof(name)) < 0 || !(fs->f[i].name = strdup(name))) {
			sb_fileset_free(fs);
			return sb_err_set(err, -ENOMEM, "file %u of job %s: out of memory or name too long", i,
					  o->name);
		}
	}
	return 0;
}

void sb_fileset_free(struct sb_fileset *fs)
{
	unsigned i;

	for (i = 0; fs->f && i < fs->n; i++)
		free(fs->f[i].name);
	free(fs->f);
	memset(fs, 0, sizeof(*fs));
	fs->cur = -1;
}

static void close_one(struct sb_fileset *fs, struct sb_fsfile *f, sb_fs_close_fn cl, void *arg)
{
	if (!f->open)
		return;
	if (cl)
		cl(arg, f);
	f->open = false;
	fs->nopen--;
}

void sb_fileset_close_all(struct sb_fileset *fs, sb_fs_close_fn cl, void *arg)
{
	unsigned i;

	for (i = 0; fs->f && i < fs->n; i++)
		close_one(fs, &fs->f[i], cl, arg);
}

static bool nonuniform(const struct sb_job_opts *o)
{
	return o->files.service >= SB_FSERV_ZIPF;
}

/* fio's set_io_u_file: a file with no io left is closed and done (with
 * a non-uniform service: closed and started over, fio's fio_file_reset) */
static bool exhausted(struct sb_fileset *fs, const struct sb_job_opts *o, unsigned i, sb_fs_close_fn cl,
		      void *arg)
{
	struct sb_fsfile *f = &fs->f[i];

	if (f->done_bytes < f->io_size)
		return false;
	close_one(fs, f, cl, arg);
	if (nonuniform(o)) {
		f->done_bytes = 0;
		return true;
	}
	f->done = true;
	fs->ndone++;
	return true;
}

/* A candidate of the pick: 1 when it takes the io (opened now if it had
 * to be), 0 when fio would pass it by (done, or closed with openfiles
 * reached: fio's -EBUSY, after which it tries again), or -errno. */
static int candidate(struct sb_fileset *fs, const struct sb_job_opts *o, unsigned i, sb_fs_open_fn op,
		     sb_fs_close_fn cl, void *arg)
{
	struct sb_fsfile *f = &fs->f[i];
	int rc;

	if (f->done)
		return 0;
	if (!f->open) {
		if (fs->nopen >= o->files.openfiles)
			return 0;
		if (op && (rc = op(arg, f)) < 0)
			return rc;
		f->open = true;
		fs->nopen++;
	}
	return exhausted(fs, o, i, cl, arg) ? 0 : 1;
}

static double u01(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* fio's get_next_file_rr / get_next_file_rand, with its -EBUSY retries
 * folded in: the first file, in fio's order, that can take the io */
static int pick(struct sb_fileset *fs, const struct sb_job_opts *o, sb_fs_open_fn op, sb_fs_close_fn cl,
		void *arg)
{
	uint64_t tries, most = 4ULL * fs->n + 64;
	unsigned i;
	int rc;

	for (tries = 0; tries < most; tries++) {
		if (o->files.service == SB_FSERV_RANDOM && tries < most / 2) {
			i = (unsigned)rng_below(&fs->rng, fs->n);
		} else if (nonuniform(o) && tries < most / 2) {
			/* fio's __get_next_fileno_rand */
			uint64_t r = o->files.service == SB_FSERV_GAUSS ? sb_gauss_next(&fs->gauss, &fs->rng)
				: o->files.service == SB_FSERV_ZIPF ? sb_zipf_next(&fs->zipf, u01(&fs->rng))
				: sb_pareto_next(&fs->zipf, u01(&fs->rng));

			i = (unsigned)((r >> FSERV_SHIFT) % fs->n);
		} else {
			i = fs->next;
			fs->next = fs->next + 1 >= fs->n ? 0 : fs->next + 1;
		}
		if ((rc = candidate(fs, o, i, op, cl, arg)) != 0)
			return rc < 0 ? rc : (int)i;
		if (fs->ndone >= fs->n)
			return ALL_DONE;
	}
	return ALL_DONE;
}

static void new_pass(struct sb_fileset *fs, sb_fs_close_fn cl, void *arg)
{
	unsigned i;

	sb_fileset_close_all(fs, cl, arg);
	for (i = 0; i < fs->n; i++) {
		fs->f[i].done = false;
		fs->f[i].done_bytes = 0;
	}
	fs->ndone = 0;
	fs->cur = -1;
}

int sb_fileset_next(struct sb_fileset *fs, const struct sb_job_opts *o, uint64_t len, sb_fs_open_fn op,
		    sb_fs_close_fn cl, void *arg)
{
	int i = fs->cur;

	if (i >= 0 && fs->f[i].open && !fs->f[i].done &&
	    (o->files.service == SB_FSERV_SEQ || fs->left)) {
		if (o->files.service != SB_FSERV_SEQ)
			fs->left--;
		if (!exhausted(fs, o, (unsigned)i, cl, arg))
			goto out;
	}
	if (fs->ndone >= fs->n)
		new_pass(fs, cl, arg);
	if ((i = pick(fs, o, op, cl, arg)) == ALL_DONE) {
		/* every file's io was issued: fio's time_based job starts over */
		new_pass(fs, cl, arg);
		i = pick(fs, o, op, cl, arg);
	}
	if (i < 0)
		return i == ALL_DONE ? -EIO : i;
	fs->cur = i;
	fs->left = o->files.service_nr ? o->files.service_nr - 1 : 0;
out:
	fs->f[i].done_bytes += len;
	return i;
}
