/* The throwaway kernel, part four: nothing it leaves on the host goes
 * unrecorded. Each run writes a record (one file in a root-owned 0700
 * directory) before it creates its temp dir or member files, and updates
 * it with the kernel's process group once booted. Two things clean up after
 * a run that was killed:
 *  - a guardian process (its own session, so terminal signals miss it),
 *    started right after the record is first written and before the
 *    temp dir or any member file exists, that waits on a pipe from the run: EOF without a "done" byte means the
 *    run died (kill -9), and it kills the kernel's process group and removes
 *    the files and the record;
 *  - sb_sandbox_reap at the next start, for the runs whose guardian died
 *    too: a record whose owner is gone (pid and start time) is cleaned the
 *    same way, and what was removed is said. */
#include "sandbox/sandbox_int.h"
#include "sys/child.h"
#include "sys/sysfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/fs.h"
#include "util/log.h"

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	remove(p);
	return 0;
}

void sb_sbx_rm_tree(const char *dir)
{
	if (dir[0])
		nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static const char *records_dir(void)
{
	const char *e = getenv("STACKBENCH_SANDBOX_RECORDS");

	return e && *e ? e : SB_SANDBOX_RECORDS_DEFAULT;
}

/* The records directory: created 0700; an existing one must be a real
 * directory of ours with exactly that mode (anyone else could plant a
 * record naming files for us to delete). */
static int records_prepare(char *dir, size_t len, struct sb_err *err)
{
	struct stat st;
	char parent[PATH_MAX], *slash;
	int rc;

	if ((size_t)snprintf(dir, len, "%s", records_dir()) >= len)
		return sb_err_set(err, -ENAMETOOLONG, "sandbox: records directory path too long");
	snprintf(parent, sizeof(parent), "%s", dir);
	slash = strrchr(parent, '/');
	if (slash && slash != parent) {
		*slash = '\0';
		rc = sb_mkdir_p(parent, 0755, err);
		if (rc < 0)
			return rc;
	}
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return sb_err_sys(err, -errno, "sandbox: cannot create %s", dir);
	if (lstat(dir, &st) < 0)
		return sb_err_sys(err, -errno, "sandbox: cannot check %s", dir);
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 07777) != 0700)
		return sb_err_set(err, -SB_EREFUSED, "sandbox: refusing the records directory %s: it must be "
				  "a directory owned by uid %u with mode 0700 (it is %s, uid %u, mode %04o)",
				  dir, (unsigned)geteuid(), S_ISDIR(st.st_mode) ? "a directory" :
				  S_ISLNK(st.st_mode) ? "a symlink" : "not a directory",
				  (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
	return 0;
}

int sb_sbx_record_write(const struct sb_sbx_record *r, struct sb_err *err)
{
	char tmp[PATH_MAX + 8];
	FILE *f;
	int fd;

	snprintf(tmp, sizeof(tmp), "%s.new", r->path);
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		if (fd >= 0)
			close(fd);
		return sb_err_sys(err, -errno, "sandbox: cannot write the run record %s", tmp);
	}
	fprintf(f, "owner %d %llu\ndir %s\nmembers %s\numid %s\npgid %d\nguard %d\n", (int)r->owner,
		r->owner_start, r->dir, r->members_dir, r->umid, (int)r->uml_pgid, (int)r->guard);
	if (fflush(f) != 0 || fsync(fd) != 0 || fclose(f) != 0)
		return sb_err_sys(err, -EIO, "sandbox: cannot write the run record %s", tmp);
	if (rename(tmp, r->path) < 0)
		return sb_err_sys(err, -errno, "sandbox: cannot write the run record %s", r->path);
	return 0;
}

static int guard_start(struct sb_sbx_record *r, struct sb_err *err);

int sb_sbx_record_open(struct sb_sbx_record *r, const char *tmp, const char *members_parent,
		       struct sb_err *err)
{
	char dir[PATH_MAX];
	unsigned rnd;
	int rc;

	r->guard_fd = -1;
	rc = records_prepare(dir, sizeof(dir), err);
	if (rc < 0)
		return rc;
	r->owner = getpid();
	r->owner_start = sb_proc_start(r->owner);
	snprintf(r->umid, sizeof(r->umid), "sb-%d", (int)r->owner);
	if ((size_t)snprintf(r->path, sizeof(r->path), "%s/%d.run", dir, (int)r->owner) >= sizeof(r->path))
		return sb_err_set(err, -ENAMETOOLONG, "sandbox: record path too long");
	/* The names are decided and recorded before anything exists. */
	rnd = (unsigned)time(NULL) ^ ((unsigned)r->owner << 12) ^ (unsigned)(uintptr_t)r;
	if ((size_t)snprintf(r->dir, sizeof(r->dir), "%s/sb-uml.%d.%06x", tmp, (int)r->owner,
			     rnd & 0xffffff) >= sizeof(r->dir))
		return sb_err_set(err, -ENAMETOOLONG, "sandbox: temp dir path too long under %s", tmp);
	r->members_dir[0] = '\0';
	if (members_parent && *members_parent &&
	    (size_t)snprintf(r->members_dir, sizeof(r->members_dir), "%s/.sb-sandbox-%d.%06x",
			     members_parent, (int)r->owner, rnd & 0xffffff) >= sizeof(r->members_dir))
		return sb_err_set(err, -ENAMETOOLONG, "sandbox: member dir path too long under %s",
				  members_parent);
	rc = sb_sbx_record_write(r, err);
	if (rc < 0)
		return rc;
	/* The guardian watches from here on: a kill -9 while the temp dir or
	 * the member files are made is cleaned up too. */
	rc = guard_start(r, err);
	if (rc == 0)
		sb_test_pause("sandbox:recorded");
	if (rc == 0 && mkdir(r->dir, 0700) < 0)
		rc = sb_err_sys(err, -errno, "sandbox: cannot create the temp dir %s", r->dir);
	if (rc < 0) {
		unlink(r->path);
		r->path[0] = '\0';
		sb_sbx_guard_stop(r);
	}
	return rc;
}

/* Write zeros over a preallocated member file, and sync it. Why: on a disk
 * posix_fallocate leaves the extents unwritten, and the first write into
 * each one converts it (a journal commit on the host) inside the
 * benchmark's fsync: one stack's first dd repetition on /var/tmp wrote 479
 * MB/s (passes 518, 479, 246) against 676-786 later; with the zeros 564 /
 * 524 / 447 (2026-12-01, quiet machine). On a tmpfs the pages are
 * allocated but not yet written, and on a host whose memory is backed on
 * first touch (memory.c) that first write is the expensive one: the
 * relations benchmark's first stack still wrote 0.57 x its later
 * repetitions with the members on a host tmpfs. */
static int member_zero_fill(int fd, const char *file, uint64_t size, struct sb_err *err)
{
	static const char zero[1 << 20];
	uint64_t off;

	for (off = 0; off < size; ) {
		size_t n = size - off < sizeof(zero) ? (size_t)(size - off) : sizeof(zero);
		ssize_t w = pwrite(fd, zero, n, (off_t)off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return sb_err_sys(err, w < 0 ? -errno : -EIO, "sandbox: cannot write zeros into %s", file);
		off += (uint64_t)w;
	}
	if (fdatasync(fd) < 0)
		return sb_err_sys(err, -errno, "sandbox: cannot sync %s", file);
	return 0;
}

int sb_sbx_members_create(struct sb_sbx_record *r, const struct sb_sandbox_members *m,
			  struct sb_err *err)
{
	char file[PATH_MAX + 16];
	unsigned i;
	int fd, rc;

	if (!m || !m->count)
		return 0;
	if (m->count > SB_SANDBOX_MAX_UBD)
		return sb_err_set(err, -EINVAL, "sandbox: %u members asked for, UML has %d block devices",
				  m->count, SB_SANDBOX_MAX_UBD);
	rc = sb_mkdir_p(m->dir, 0755, err);
	if (rc < 0)
		return rc;
	if (mkdir(r->members_dir, 0700) < 0)
		return sb_err_sys(err, -errno, "sandbox: cannot create %s", r->members_dir);
	if (m->measure)
		sb_info("sandbox: preparing %u member files of %.0f MiB in %s (written with zeros once, so "
			"no benchmark write is the first into its blocks or pages)",
			m->count, m->size / 1048576.0, m->dir);
	for (i = 0; i < m->count; i++) {
		snprintf(file, sizeof(file), "%s/ubd%u", r->members_dir, i);
		fd = open(file, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0)
			return sb_err_sys(err, -errno, "sandbox: cannot create the member file %s", file);
		/* Preallocated, so a benchmark's first writes do not pay the
		 * host's block allocation; sparse where the filesystem cannot. */
		rc = posix_fallocate(fd, 0, (off_t)m->size);
		if (rc == EOPNOTSUPP || rc == EINVAL) {
			sb_verbose("sandbox: %s cannot be preallocated here; sparse", file);
			rc = ftruncate(fd, (off_t)m->size) ? errno : 0;
		}
		if (rc) {
			close(fd);
			return sb_err_sys(err, -rc, "sandbox: cannot allocate %llu bytes for %s",
					  (unsigned long long)m->size, file);
		}
		if (i == 0)
			sb_test_pause("sandbox:member");
		rc = m->measure ? member_zero_fill(fd, file, m->size, err) : 0;
		close(fd);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Processes of process group pgid that run linux.uml with this umid. */
static unsigned uml_group_count(pid_t pgid, const char *umid)
{
	char path[64], buf[4096], want[64];
	struct dirent *de;
	unsigned n = 0;
	DIR *d;

	if (pgid <= 0 || !(d = opendir("/proc")))
		return 0;
	snprintf(want, sizeof(want), "umid=%s", umid);
	while ((de = readdir(d))) {
		pid_t pid = atoi(de->d_name);
		ssize_t len;
		int fd;

		if (pid <= 0 || getpgid(pid) != pgid)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (len <= 0)
			continue;
		buf[len] = '\0';
		for (ssize_t k = 0; k < len; k += strlen(buf + k) + 1)
			if (!strcmp(buf + k, want)) {
				n++;
				break;
			}
	}
	closedir(d);
	return n;
}

/* Only what a record of ours may name: our own temp and member dirs. */
static bool name_is_ours(const char *p, const char *prefix)
{
	const char *b = strrchr(p, '/');

	return b && !strncmp(b + 1, prefix, strlen(prefix)) && !strstr(p, "/../");
}

/* Kill what is left of a run and remove its files; what is says what
 * that was ("" nothing). */
static void clean_run(const struct sb_sbx_record *r, char *what, size_t len)
{
	unsigned n = uml_group_count(r->uml_pgid, r->umid), tries;
	struct stat st;
	size_t o = 0;

	what[0] = '\0';
	if (n) {
		kill(-r->uml_pgid, SIGKILL);
		for (tries = 0; tries < 100 && uml_group_count(r->uml_pgid, r->umid); tries++)
			usleep(50000);
		o += snprintf(what + o, len - o, "the throwaway kernel still running (process group %d, "
			      "%u process%s)", (int)r->uml_pgid, n, n == 1 ? "" : "es");
	}
	if (r->dir[0] && name_is_ours(r->dir, "sb-uml.") && lstat(r->dir, &st) == 0) {
		sb_sbx_rm_tree(r->dir);
		o += snprintf(what + o, o < len ? len - o : 0, "%s%s", o ? ", " : "", r->dir);
	}
	if (r->members_dir[0] && name_is_ours(r->members_dir, ".sb-sandbox-") && lstat(r->members_dir, &st) == 0) {
		sb_sbx_rm_tree(r->members_dir);
		snprintf(what + o, o < len ? len - o : 0, "%sthe member files in %s", o ? ", " : "",
			 r->members_dir);
	}
}

static int record_parse(const char *path, struct sb_sbx_record *r)
{
	char buf[4 * PATH_MAX], *line, *save;
	int pgid = 0, guard = 0, owner = 0;

	int rc;

	memset(r, 0, sizeof(*r));
	if (strlen(path) >= sizeof(r->path))
		return -ENAMETOOLONG;
	rc = sb_sbx_read_small(path, buf, sizeof(buf));
	if (rc < 0)
		return rc;
	memcpy(r->path, path, strlen(path) + 1);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "owner ", 6))
			sscanf(line + 6, "%d %llu", &owner, &r->owner_start);
		else if (!strncmp(line, "dir ", 4))
			snprintf(r->dir, sizeof(r->dir), "%s", line + 4);
		else if (!strncmp(line, "members ", 8))
			snprintf(r->members_dir, sizeof(r->members_dir), "%s", line + 8);
		else if (!strncmp(line, "umid ", 5))
			snprintf(r->umid, sizeof(r->umid), "%s", line + 5);
		else if (!strncmp(line, "pgid ", 5))
			pgid = atoi(line + 5);
		else if (!strncmp(line, "guard ", 6))
			guard = atoi(line + 6);
	}
	r->owner = owner;
	r->uml_pgid = pgid;
	r->guard = guard;
	return owner > 0 ? 0 : -EINVAL;
}

int sb_sandbox_reap(struct sb_err *err)
{
	char dir[PATH_MAX], path[PATH_MAX + 300], what[2 * PATH_MAX + 300];
	struct sb_sbx_record r;
	struct dirent *de;
	int rc, n = 0;
	DIR *d;

	rc = records_prepare(dir, sizeof(dir), err);
	if (rc < 0)
		return rc;
	d = opendir(dir);
	if (!d)
		return sb_err_sys(err, -errno, "sandbox: cannot read %s", dir);
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (l < 5 || strcmp(de->d_name + l - 4, ".run"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (record_parse(path, &r) < 0) {
			sb_warn("sandbox: ignoring the unreadable run record %s", path);
			continue;
		}
		if (sb_proc_start(r.owner) == r.owner_start)
			continue;  /* that run is alive */
		/* Its guardian may be cleaning right now: let it finish. */
		for (int t = 0; t < 100 && r.guard > 0 && kill(r.guard, 0) == 0 && access(path, F_OK) == 0; t++)
			usleep(50000);
		if (access(path, F_OK) != 0)
			continue;
		clean_run(&r, what, sizeof(what));
		unlink(path);
		n++;
		sb_warn("sandbox: an earlier run (pid %d) was killed; removed what it left: %s", (int)r.owner,
			what[0] ? what : "its record only");
	}
	closedir(d);
	return n;
}

/* The guardian: reads fd until EOF. A 'd' first means the run ended
 * normally; EOF alone means it died, and then we clean up after it. */
static void guard_main(int fd, const struct sb_sbx_record *r)
{
	char c = 0, what[2 * PATH_MAX + 300];
	struct sb_sbx_record now;
	ssize_t n;

	signal(SIGINT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	while ((n = read(fd, &c, 1)) < 0 && errno == EINTR)
		;
	if (n == 1 && c == 'd')
		_exit(0);
	/* the record as the run last wrote it: the kernel's process group
	 * came after this guardian */
	if (record_parse(r->path, &now) == 0 && now.owner == r->owner)
		r = &now;
	clean_run(r, what, sizeof(what));
	unlink(r->path);
	if (what[0])
		fprintf(stderr, "stackbench: warning: sandbox: the run (pid %d) was killed; removed %s\n",
			(int)r->owner, what);
	_exit(0);
}

static int guard_fn(void *arg)
{
	guard_main(3, arg);
	return 0;
}

/* Fork the guardian; r->guard_fd: our end of its pipe. Its own session; of
 * the run's files only the pipe (fd 3): its pipes to the kernel must reach
 * EOF when the kernel is gone. */
static int guard_start(struct sb_sbx_record *r, struct sb_err *err)
{
	struct sb_child c = { .fn = guard_fn, .arg = r, .in = SB_CHILD_NULL, .out = SB_CHILD_NULL,
			      .close_others = true, .new_session = true };
	struct sb_err ce = { 0 };
	int p[2], rc;

	if (pipe2(p, O_CLOEXEC) < 0)
		return sb_err_sys(err, -errno, "sandbox: pipe");
	c.fd3 = p[0];
	rc = sb_child_start(&c, &ce);
	close(p[0]);
	if (rc < 0) {
		close(p[1]);
		return sb_err_set(err, rc, "sandbox: guardian: %s", ce.msg);
	}
	r->guard_fd = p[1];
	r->guard = c.pid;
	return sb_sbx_record_write(r, err);
}

void sb_sbx_guard_stop(struct sb_sbx_record *r)
{
	if (r->guard_fd < 0)
		return;
	if (write(r->guard_fd, "d", 1) != 1)
		sb_debug("sandbox: could not tell the guardian the run ended");
	close(r->guard_fd);
	r->guard_fd = -1;
}

void sb_sbx_record_close(struct sb_sbx_record *r)
{
	if (r->members_dir[0])
		sb_sbx_rm_tree(r->members_dir);
	sb_sbx_rm_tree(r->dir);
	if (r->path[0])
		unlink(r->path);
	r->path[0] = '\0';
}
