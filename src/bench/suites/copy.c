/* copy: the real tools people back up with - cp, rsync and curl file:// -
 * moving one large file and a tree of photo-sized files (3-8 MiB each) into
 * the target ("in": the stack writes) and back out of it ("out": the stack
 * reads), from and to a second directory standing for the other disk
 * (bench.copy_dir, default a private directory in /var/tmp). The page
 * cache is dropped before every copy and each copy is timed up to syncfs()
 * of its destination, so the figure is what reached the disk. Every copy
 * is checked against the source (SHA-256) and removed afterwards. Works on
 * any directory: a local mount or a client mount of an export. */
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "bench/suite.h"
#include "util/clock.h"
#include "bench/suites/suites.h"
#include "sys/child.h"
#include "util/log.h"

#define MiB (1ULL << 20)
#define PHOTO_MIN (3 * MiB)
#define PHOTO_SPAN (5 * MiB)   /* sizes 3..8 MiB */
#define MAX_PHOTOS 4096
#define COPY_DEFAULT_SIZE (256 * MiB)


struct copy_run {
	struct sb_suite_ctx *c;
	char other[PATH_MAX];      /* our private directory on the other disk */
	char stackdir[PATH_MAX];   /* our private directory in the target */
	uint64_t big, tree;        /* bytes */
	unsigned nphotos;
	char big_sum[65], tree_sum[65];
	struct json_object *copies;
};

static uint64_t photo_size(unsigned i)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL * (i + 1);

	x ^= x >> 29;
	return PHOTO_MIN + x % (PHOTO_SPAN + 1);
}

/* Incompressible content, different per file (so no tool can dedupe or
 * compress its way to a better figure). */
static int write_file(const char *path, uint64_t size, uint64_t seed, struct sb_err *err)
{
	uint64_t *buf = malloc(MiB), x = seed * 0x2545f4914f6cdd1dULL + 1;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600), rc = 0;

	if (fd < 0 || !buf) {
		rc = fd < 0 ? sb_err_sys(err, -errno, "copy: create %s", path) : sb_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (uint64_t done = 0; done < size;) {
		size_t n = size - done < MiB ? (size_t)(size - done) : MiB;

		for (size_t k = 0; k < MiB / 8; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			buf[k] = x;
		}
		if (write(fd, buf, n) != (ssize_t)n) {
			rc = sb_err_sys(err, errno ? -errno : -EIO, "copy: write %s", path);
			goto out;
		}
		done += n;
	}
	if (fsync(fd) < 0)
		rc = sb_err_sys(err, -errno, "copy: fsync %s", path);
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	return rc;
}

/* SHA-256 of one file into md (the running tree digest adds it). */
static int digest_file(const char *path, EVP_MD_CTX *tree, struct sb_err *err)
{
	unsigned char *buf = malloc(MiB), md[EVP_MAX_MD_SIZE];
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = 0;
	unsigned mdlen = 0;
	ssize_t n;

	if (fd < 0 || !buf || !ctx || EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1) {
		rc = fd < 0 ? sb_err_sys(err, -errno, "copy: %s is missing", path) : sb_err_set(err, -ENOMEM, "copy: digest");
		goto out;
	}
	while ((n = read(fd, buf, MiB)) > 0)
		EVP_DigestUpdate(ctx, buf, (size_t)n);
	if (n < 0)
		rc = sb_err_sys(err, -errno, "copy: read %s", path);
	EVP_DigestFinal_ex(ctx, md, &mdlen);
	EVP_DigestUpdate(tree, md, mdlen);
out:
	if (fd >= 0)
		close(fd);
	EVP_MD_CTX_free(ctx);
	free(buf);
	return rc;
}

/* The digest of a copy: the big file alone (tree false), or every photo
 * by name in order plus the count of entries, so a missing or extra file
 * changes it too. */
static int digest(const char *path, bool tree, unsigned nphotos, char hex[65], struct sb_err *err)
{
	EVP_MD_CTX *t = EVP_MD_CTX_new();
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned mdlen = 0, entries = 0;
	char p[PATH_MAX + 32];
	int rc = 0;

	if (!t || EVP_DigestInit_ex(t, EVP_sha256(), NULL) != 1)
		return sb_err_set(err, -ENOMEM, "copy: digest");
	if (!tree) {
		rc = digest_file(path, t, err);
	} else {
		DIR *d = opendir(path);
		struct dirent *e;

		while (d && (e = readdir(d)))
			entries += e->d_name[0] != '.';
		if (d)
			closedir(d);
		EVP_DigestUpdate(t, &entries, sizeof(entries));
		for (unsigned i = 0; rc == 0 && i < nphotos; i++) {
			snprintf(p, sizeof(p), "%s/IMG_%04u.CR2", path, i);
			rc = digest_file(p, t, err);
		}
	}
	EVP_DigestFinal_ex(t, md, &mdlen);
	EVP_MD_CTX_free(t);
	for (unsigned i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	return rc;
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	return remove(p) < 0 && errno != ENOENT ? -1 : 0;
}

static void rm_tree(const char *path)
{
	if (path[0] && nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS) < 0)
		sb_warn("copy: could not remove all of %s: %s", path, strerror(errno));
}

/* Run argv to completion, its output discarded; the last line of its
 * stderr goes into the error. -ENOENT when the tool is not installed. The
 * tool dies with the thread that waits for it (a stackbench killed with -9
 * must not leave a cp or rsync writing into the directories its teardown
 * removes, or holding the target's mount). */
static int run_tool(char *const *argv, struct sb_err *err)
{
	int efd = memfd_create("sb-copy-stderr", MFD_CLOEXEC), st = 0, rc;
	struct sb_child c = { .argv = (const char *const *)argv, .in = SB_CHILD_NULL, .out = SB_CHILD_NULL,
			      .pdeathsig = SIGKILL };
	struct sb_err ce = { 0 };
	char how[64];

	if (efd < 0)
		return sb_err_sys(err, -errno, "copy: memfd_create");
	c.err = efd;
	rc = sb_child_start(&c, &ce);
	if (rc == 0)
		rc = sb_child_wait(&c, 0, &st, &ce);
	if (rc < 0) {
		close(efd);
		return sb_err_set(err, rc, "copy: %s", ce.msg);
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		char msg[256] = "";
		ssize_t n = pread(efd, msg, sizeof(msg) - 1, 0);

		msg[n > 0 ? n : 0] = '\0';
		msg[strcspn(msg, "\n")] = '\0';
		close(efd);
		return sb_err_set(err, -EIO, "copy: %s %s%s%s", argv[0], sb_child_status_text(st, how, sizeof(how)),
				  msg[0] ? ": " : "", msg);
	}
	close(efd);
	return 0;
}

enum tool { T_CP, T_RSYNC, T_CURL, NTOOLS };
static const char *const tool_names[NTOOLS] = { "cp", "rsync", "curl" };

/* argv for one copy of src to dst (both absolute; for a tree, dst does not
 * exist yet and becomes the copy of the directory src). */
static char **tool_argv(enum tool t, bool tree, const char *src, const char *dst, unsigned nphotos)
{
	size_t n = 0, max = 8 + 2 * (size_t)nphotos;
	char **a = calloc(max + 1, sizeof(*a));

	if (!a)
		return NULL;
	a[n++] = strdup(tool_names[t]);
	if (t == T_CP) {
		if (tree)
			a[n++] = strdup("-r");
		a[n++] = strdup(src);
		a[n++] = strdup(dst);
	} else if (t == T_RSYNC) {
		/* -a as backups use it; a local rsync copies whole files */
		a[n++] = strdup("-a");
		if (tree) {
			if (asprintf(&a[n++], "%s/", src) < 0)
				a[n - 1] = NULL;
		} else {
			a[n++] = strdup(src);
		}
		a[n++] = strdup(dst);
	} else {
		a[n++] = strdup("-sS");
		a[n++] = strdup(tree ? "--create-dirs" : "--no-progress-meter");
		for (unsigned i = 0; i < (tree ? nphotos : 1); i++) {
			if (tree ? asprintf(&a[n++], "file://%s/IMG_%04u.CR2", src, i) < 0 :
			    asprintf(&a[n++], "file://%s", src) < 0)
				a[n - 1] = NULL;
			a[n++] = strdup("-o");
			if (tree ? asprintf(&a[n++], "%s/IMG_%04u.CR2", dst, i) < 0 : !(a[n++] = strdup(dst)))
				a[n - 1] = NULL;
		}
	}
	for (size_t i = 0; i < n; i++)
		if (!a[i]) {
			for (size_t k = 0; k < n; k++)
				free(a[k]);
			free(a);
			return NULL;
		}
	return a;
}

static void free_argv(char **a)
{
	for (size_t i = 0; a && a[i]; i++)
		free(a[i]);
	free(a);
}

static int syncfs_path(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc;

	if (fd < 0)
		return -errno;
	rc = syncfs(fd) < 0 ? -errno : 0;
	close(fd);
	return rc;
}

/* One timed copy of the big file or the tree, in or out; checked against
 * the source digest, then its figures and its record in "copies". */
static int one_copy(struct copy_run *r, enum tool t, bool tree, bool in, const char *src,
		    const char *dst, struct sb_err *err)
{
	struct sb_suite_ctx *c = r->c;
	uint64_t bytes = tree ? r->tree : r->big, t0, el;
	char **argv = tool_argv(t, tree, src, dst, r->nphotos), name[64], hex[65], what[96];
	struct json_object *o;
	int rc;

	if (!argv)
		return sb_err_set(err, -ENOMEM, "out of memory");
	snprintf(what, sizeof(what), "%s, %s %s the stack", tool_names[t],
		 tree ? "photo tree" : "large file", in ? "into" : "out of");
	sb_suite_phase(c, what);
	sb_suite_drop_caches(c);
	t0 = sb_clock_ns();
	rc = run_tool(argv, err);
	if (rc == 0 && (rc = syncfs_path(in ? r->stackdir : r->other)) < 0)
		sb_err_sys(err, rc, "copy: syncfs after %s", what);
	el = sb_clock_ns() - t0;
	free_argv(argv);
	if (rc)
		return rc;
	if ((rc = digest(dst, tree, r->nphotos, hex, err)) < 0)
		return rc;
	if (strcmp(hex, tree ? r->tree_sum : r->big_sum))
		return sb_err_set(err, -EILSEQ, "copy: %s: the copy differs from the source (SHA-256 %s, source %s)",
				  what, hex, tree ? r->tree_sum : r->big_sum);
	snprintf(name, sizeof(name), "%s_%s_%s", tool_names[t], tree ? "tree" : "file", in ? "in" : "out");
	sb_suite_figure(c, name, (double)bytes / ((double)el / 1e9) / 1e6, "MB/s", -1, 0);
	if (tree) {
		snprintf(name, sizeof(name), "%s_tree_%s_files", tool_names[t], in ? "in" : "out");
		sb_suite_figure(c, name, r->nphotos / ((double)el / 1e9), "files/s", -1, 0);
	}
	o = json_object_new_object();
	json_object_object_add(o, "tool", json_object_new_string(tool_names[t]));
	json_object_object_add(o, "what", json_object_new_string(tree ? "tree" : "file"));
	json_object_object_add(o, "direction", json_object_new_string(in ? "in" : "out"));
	json_object_object_add(o, "bytes", json_object_new_int64((int64_t)bytes));
	json_object_object_add(o, "files", json_object_new_int(tree ? (int)r->nphotos : 1));
	json_object_object_add(o, "seconds", json_object_new_double(round((double)el / 1e6) / 1e3));
	json_object_object_add(o, "sha256", json_object_new_string(hex));
	json_object_object_add(o, "intact", json_object_new_boolean(true));
	json_object_array_add(r->copies, o);
	return 0;
}

/* A tool: file in, file out, tree in, tree out; its copies removed after. */
static int copy_tool(struct copy_run *r, enum tool t, struct sb_err *err)
{
	char s[PATH_MAX + 64], in[PATH_MAX + 64], out[PATH_MAX + 64], sdir[PATH_MAX + 16], odir[PATH_MAX + 16];
	int rc;

	snprintf(sdir, sizeof(sdir), "%s/%s", r->stackdir, tool_names[t]);
	snprintf(odir, sizeof(odir), "%s/out-%s", r->other, tool_names[t]);
	if (mkdir(sdir, 0700) < 0 || mkdir(odir, 0700) < 0)
		return sb_err_sys(err, -errno, "copy: mkdir %s", sdir);
	snprintf(s, sizeof(s), "%s/src/big.bin", r->other);
	snprintf(in, sizeof(in), "%s/big.bin", sdir);
	snprintf(out, sizeof(out), "%s/big.bin", odir);
	rc = one_copy(r, t, false, true, s, in, err);
	if (rc == 0)
		rc = one_copy(r, t, false, false, in, out, err);
	unlink(in);
	unlink(out);
	snprintf(s, sizeof(s), "%s/src/photos", r->other);
	snprintf(in, sizeof(in), "%s/photos", sdir);
	snprintf(out, sizeof(out), "%s/photos", odir);
	if (rc == 0)
		rc = one_copy(r, t, true, true, s, in, err);
	if (rc == 0)
		rc = one_copy(r, t, true, false, in, out, err);
	rm_tree(sdir);
	rm_tree(odir);
	return rc;
}

/* The sources on the other disk: half the size in one file, half in
 * photos of 3-8 MiB (at least two). */
static int make_sources(struct copy_run *r, uint64_t size, struct sb_err *err)
{
	char p[PATH_MAX + 64];
	int rc;

	r->big = size / 2;
	r->tree = 0;
	for (r->nphotos = 0; r->nphotos < MAX_PHOTOS && (r->nphotos < 2 || r->tree < size - r->big); r->nphotos++)
		r->tree += photo_size(r->nphotos);
	snprintf(p, sizeof(p), "%s/src", r->other);
	if (mkdir(p, 0700) < 0)
		return sb_err_sys(err, -errno, "copy: mkdir %s", p);
	snprintf(p, sizeof(p), "%s/src/photos", r->other);
	if (mkdir(p, 0700) < 0)
		return sb_err_sys(err, -errno, "copy: mkdir %s", p);
	sb_suite_phase(r->c, "writing the sources on the other disk");
	snprintf(p, sizeof(p), "%s/src/big.bin", r->other);
	if ((rc = write_file(p, r->big, 1, err)) < 0 || (rc = digest(p, false, 0, r->big_sum, err)) < 0)
		return rc;
	for (unsigned i = 0; i < r->nphotos; i++) {
		snprintf(p, sizeof(p), "%s/src/photos/IMG_%04u.CR2", r->other, i);
		if ((rc = write_file(p, photo_size(i), i + 2, err)) < 0)
			return rc;
	}
	snprintf(p, sizeof(p), "%s/src/photos", r->other);
	return digest(p, true, r->nphotos, r->tree_sum, err);
}

static const char *fs_name(const char *path)
{
	static const struct { long magic; const char *name; } names[] = {
		{ 0xEF53, "ext4" }, { 0x58465342, "xfs" }, { 0x9123683E, "btrfs" }, { 0x01021994, "tmpfs" },
		{ 0x794c7630, "overlay" }, { 0x65735546, "fuse" }, { 0x6969, "nfs" }, { 0xFF534D42, "cifs" },
		{ 0xFE534D42, "smb2" }, { 0x858458f6, "ramfs" },
	};
	struct statfs s;

	if (statfs(path, &s) < 0)
		return "unknown";
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (s.f_type == names[i].magic)
			return names[i].name;
	return "other";
}

/* This boot's id, 8 hex digits: a pid names a process of this boot only. */
static void boot_tag(char out[9])
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");

	if (!f || fscanf(f, "%8[0-9a-f]", out) != 1)
		snprintf(out, 9, "noboot");
	if (f)
		fclose(f);
}

/* The other directory is no state object (the suite runs on any directory,
 * with no stack): a run killed with -9 cannot remove it. Its name carries
 * this boot's tag and the pid that made it; a later copy run, and every
 * `stackbench teardown` (sb_suite_copy_sweep on /var/tmp), removes those of
 * this boot whose process is gone and that belong to this user. */
unsigned sb_suite_copy_sweep(const char *base, void (*removed)(const char *path, long pid, void *ctx),
			     void *ctx)
{
	DIR *d = opendir(base);
	struct dirent *e;
	char tag[9], pfx[32], p[PATH_MAX];
	struct stat st;
	unsigned n = 0;

	boot_tag(tag);
	snprintf(pfx, sizeof(pfx), "stackbench-copy-%s-", tag);
	while (d && (e = readdir(d))) {
		char *end;
		long pid;

		if (strncmp(e->d_name, pfx, strlen(pfx)))
			continue;
		pid = strtol(e->d_name + strlen(pfx), &end, 10);
		if (pid <= 0 || *end != '-' || strlen(end + 1) != 6 || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(p, sizeof(p), "%s/%s", base, e->d_name);
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid()) {
			if (removed)
				removed(p, pid, ctx);
			rm_tree(p);
			n++;
		}
	}
	if (d)
		closedir(d);
	return n;
}

static void noted(const char *path, long pid, void *ctx)
{
	sb_suite_note(ctx, "copy: removed %s, left by a run (pid %ld) that was killed", path, pid);
}

static int make_dirs(struct copy_run *r, uint64_t size, struct sb_err *err)
{
	char tag[9];
	const char *base = r->c->b->copy_dir[0] ? r->c->b->copy_dir : "/var/tmp";
	struct stat a, b;
	struct statvfs v;

	if (stat(base, &a) < 0 || !S_ISDIR(a.st_mode))
		return sb_err_set(err, -EINVAL, "copy: bench.copy_dir %s is not a directory", base);
	if (statvfs(base, &v) == 0 && (uint64_t)v.f_bavail * v.f_frsize < 2 * size + size / 25)
		return sb_err_set(err, -ENOSPC, "copy: the other directory %s needs twice bench.size (the sources "
				  "and the copies out of the stack); set bench.copy_dir or a smaller bench.size", base);
	boot_tag(tag);
	sb_suite_copy_sweep(base, noted, r->c);
	snprintf(r->other, sizeof(r->other), "%s/stackbench-copy-%s-%ld-XXXXXX", base, tag, (long)getpid());
	snprintf(r->stackdir, sizeof(r->stackdir), "%s/stackbench-copy-XXXXXX", r->c->target);
	if (!mkdtemp(r->other)) {
		r->other[0] = '\0';
		return sb_err_sys(err, -errno, "copy: mkdtemp in %s", base);
	}
	if (!mkdtemp(r->stackdir)) {
		r->stackdir[0] = '\0';
		return sb_err_sys(err, -errno, "copy: mkdtemp in %s", r->c->target);
	}
	json_object_object_add(r->c->params, "other_dir", json_object_new_string(r->other));
	json_object_object_add(r->c->params, "other_dir_given", json_object_new_boolean(r->c->b->copy_dir[0] != 0));
	json_object_object_add(r->c->params, "other_fstype", json_object_new_string(fs_name(r->other)));
	if (stat(r->other, &a) == 0 && stat(r->stackdir, &b) == 0 && a.st_dev == b.st_dev)
		sb_suite_note(r->c, "copy: the other directory %s is on the target's own filesystem: each copy "
			      "reads and writes the same disk", r->other);
	return 0;
}

static int sb_suite_copy(struct sb_suite_ctx *c, struct sb_err *err)
{
	struct copy_run r = { .c = c };
	uint64_t size = sb_suite_size(c);
	struct json_object *sums;
	int rc;

	if (size < 8 * MiB)
		return sb_err_set(err, -EINVAL, "copy: bench.size must be at least 8 MiB (one photo is 3-8 MiB)");
	if ((rc = sb_suite_check_room(c, size + PHOTO_MIN + PHOTO_SPAN, err)) < 0)
		return rc;
	c->nphases = 1 + 4 * NTOOLS;
	if ((rc = make_dirs(&r, size + PHOTO_MIN + PHOTO_SPAN, err)) < 0)
		goto out;
	if ((rc = make_sources(&r, size, err)) < 0)
		goto out;
	r.copies = json_object_new_array();
	json_object_object_add(c->params, "file_bytes", json_object_new_int64((int64_t)r.big));
	json_object_object_add(c->params, "tree_bytes", json_object_new_int64((int64_t)r.tree));
	json_object_object_add(c->params, "tree_files", json_object_new_int((int)r.nphotos));
	sums = json_object_new_object();
	json_object_object_add(sums, "file", json_object_new_string(r.big_sum));
	json_object_object_add(sums, "tree", json_object_new_string(r.tree_sum));
	json_object_object_add(c->params, "source_sha256", sums);
	json_object_object_add(c->params, "copies", r.copies);
	json_object_object_add(c->params, "method", json_object_new_string(
		"cp SRC DST / cp -r; rsync -a; curl -sS file://SRC -o DST (one curl for the whole tree); "
		"in = from the other directory into the target, out = back; page cache dropped before each "
		"copy, timed to syncfs() of the destination; MB/s = 10^6 bytes/s; every copy checked by SHA-256"));
	for (unsigned t = 0; rc == 0 && t < NTOOLS; t++) {
		struct sb_err e = { 0 };

		rc = copy_tool(&r, (enum tool)t, &e);
		if (rc == -ENOENT && strstr(e.msg, "cannot run")) {
			sb_suite_note(c, "copy: %s is not installed: no %s figures", tool_names[t], tool_names[t]);
			rc = 0;
		} else if (rc) {
			*err = e;
		}
	}
out:
	rm_tree(r.stackdir);
	rm_tree(r.other);
	return rc;
}

/* Writing the sources, then each tool x (in + out) x (copy + check). */
static double copy_estimate(double size, const struct sb_bench_spec *b, const struct sb_sizing_rates *r)
{
	return (1 + 4 * NTOOLS) * size / r->seq_bps;
}

const struct sb_suite_ops sb_suite_copy_ops = {
	.name = "copy",
	.run = sb_suite_copy,
	.default_size = COPY_DEFAULT_SIZE,
	.estimate = copy_estimate,
	.phases = 1 + 4 * NTOOLS,
	.columns = "",
};
