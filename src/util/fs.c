#include "util/fs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>
#include <stdio.h>
#include <sys/stat.h>

#include "config.h"

int sb_mkdir_p(const char *path, mode_t mode, struct sb_err *err)
{
	char tmp[PATH_MAX], *p;

	if (!*path)
		return sb_err_set(err, -EINVAL, "cannot create a directory with an empty name");
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s", path) >= sizeof(tmp))
		return sb_err_set(err, -ENAMETOOLONG, "path too long: %s", path);
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, mode) && errno != EEXIST)
			return sb_err_sys(err, -errno, "cannot create %s", tmp);
		*p = '/';
	}
	if (mkdir(tmp, mode) && errno != EEXIST)
		return sb_err_sys(err, -errno, "cannot create %s", tmp);
	return 0;
}

/* ------------------------------------------------- trusted directories */

/* What is wrong with a directory stackbench keeps its own files in, or ""
 * (owned by us, a real directory, no one else can write to it). */
static const char *untrusted_why(const struct stat *st)
{
	if (!S_ISDIR(st->st_mode))
		return "is not a directory";
	if (st->st_uid != geteuid())
		return "is owned by another user";
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return "can be written by others (group/world-writable)";
	return "";
}

/* A parent on the way: root's or ours, and writable by others only with
 * the sticky bit (/tmp, /var/tmp), where no one can rename our entries. */
static bool parent_ok(const struct stat *st)
{
	return S_ISDIR(st->st_mode) && (st->st_uid == 0 || st->st_uid == geteuid()) &&
	       (!(st->st_mode & (S_IWGRP | S_IWOTH)) || (st->st_mode & S_ISVTX));
}

int sb_dir_open_trusted(const char *path, bool create, struct sb_err *err)
{
	char buf[PATH_MAX], *save = NULL, *tok, *next;
	struct stat st;
	int dfd, nfd;

	if (path[0] != '/')
		return sb_err_set(err, -EINVAL, "%s: not an absolute path", path);
	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return sb_err_set(err, -ENAMETOOLONG, "%s: path too long", path);
	dfd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return sb_err_sys(err, -errno, "cannot open /");
	for (tok = strtok_r(buf, "/", &save); tok; tok = next) {
		bool made = false;

		next = strtok_r(NULL, "/", &save);
		if (!strcmp(tok, ".") || !strcmp(tok, "..")) {
			close(dfd);
			return sb_err_set(err, -SB_EREFUSED, "%s: '.' and '..' are not allowed here", path);
		}
		if (create && mkdirat(dfd, tok, 0700) == 0)
			made = true;
		else if (create && errno != EEXIST) {
			close(dfd);
			return sb_err_sys(err, -errno, "cannot create %s (in %s)", tok, path);
		}
		if (fstatat(dfd, tok, &st, AT_SYMLINK_NOFOLLOW)) {
			close(dfd);
			return errno == ENOENT ? sb_err_set(err, -ENOENT, "%s does not exist", path)
					       : sb_err_sys(err, -errno, "cannot look at %s in %s", tok, path);
		}
		/* A root-owned link on the way (/var/run -> /run) only root made;
		 * the last component, ours, must be the directory itself. */
		if (S_ISLNK(st.st_mode) && (!next || st.st_uid != 0)) {
			close(dfd);
			return sb_err_set(err, -SB_EREFUSED, "%s: %s is a symbolic link%s; stackbench keeps its files "
					  "only in a real directory of its own", path, tok,
					  st.st_uid ? " owned by another user" : "");
		}
		nfd = openat(dfd, tok, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (next ? 0 : O_NOFOLLOW));
		close(dfd);
		if (nfd < 0)
			return sb_err_sys(err, -errno, "cannot open %s (in %s)", tok, path);
		dfd = nfd;
		if (fstat(dfd, &st)) {
			close(dfd);
			return sb_err_sys(err, -errno, "cannot stat %s", path);
		}
		if (made && fchmod(dfd, 0700)) {     /* umask may have taken bits */
			close(dfd);
			return sb_err_sys(err, -errno, "cannot chmod %s", path);
		}
		if (next && !parent_ok(&st)) {
			close(dfd);
			return sb_err_set(err, -SB_EREFUSED, "%s: its parent component %s is writable by others "
					  "without the sticky bit, or owned by another user", path, tok);
		}
		if (!next && untrusted_why(&st)[0]) {
			const char *why = untrusted_why(&st);

			close(dfd);
			return sb_err_set(err, -SB_EREFUSED, "%s %s (owner uid %u, mode %04o); stackbench keeps "
					  "its files only in a directory of its own (mode 0700, owned by uid %u): "
					  "remove it or choose another", path, why, (unsigned)st.st_uid,
					  (unsigned)(st.st_mode & 07777), (unsigned)geteuid());
		}
	}
	return dfd;
}

int sb_fs_own_copy(char *out, size_t len, const char *built, const char *installed, int mode)
{
	char exe[PATH_MAX];
	bool in_build = realpath("/proc/self/exe", exe) &&
			!strncmp(exe, SB_BUILD_DIR "/", strlen(SB_BUILD_DIR) + 1);

	snprintf(out, len, "%s", in_build ? built : installed);
	if (access(out, mode) == 0)
		return 0;
	snprintf(out, len, "%s", in_build ? installed : built);
	return access(out, mode) == 0 ? 0 : -ENOENT;
}

char *sb_fs_read_text(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL, *nb;
	size_t len = 0, cap = 0, n;

	if (!f)
		return NULL;
	for (;;) {
		if (cap - len < 4096) {
			nb = realloc(buf, cap + 65536);
			if (!nb) {
				free(buf);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
			cap += 65536;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
		if (n == 0)
			break;
	}
	fclose(f);
	buf[len] = '\0';
	return buf;
}

int sb_fs_write_text(const char *path, const char *text, bool excl, struct sb_err *err)
{
	int fd = open(path, O_WRONLY | O_CREAT | (excl ? O_EXCL : O_TRUNC) | O_CLOEXEC | O_NOFOLLOW, 0600);
	size_t n = strlen(text);

	if (fd < 0)
		return sb_err_sys(err, -errno, "cannot create %s", path);
	if (write(fd, text, n) != (ssize_t)n) {
		close(fd);
		return sb_err_set(err, -EIO, "cannot write %s", path);
	}
	return close(fd) ? sb_err_sys(err, -errno, "cannot write %s", path) : 0;
}

int sb_fs_write_synced(int fd, const char *text, const char *path, struct sb_err *err)
{
	size_t len = strlen(text), off = 0;

	while (off < len) {
		ssize_t n = write(fd, text + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return sb_err_sys(err, -errno, "cannot write %s", path);
		off += (size_t)n;
	}
	if (write(fd, "\n", 1) != 1 || fsync(fd))
		return sb_err_sys(err, -errno, "cannot write %s", path);
	return 0;
}

int sb_fs_out_begin(const char *path, char *tmp, size_t len, const char *what, struct sb_err *err)
{
	int fd;

	if ((size_t)snprintf(tmp, len, "%s.XXXXXX", path) >= len)
		return sb_err_set(err, -ENAMETOOLONG, "%s: the name is too long", what);
	fd = mkostemp(tmp, O_CLOEXEC);   /* fleet's log: not for its children */
	if (fd < 0)
		return sb_err_sys(err, -errno, "%s: cannot create a file beside it", what);
	if (fchmod(fd, 0644) < 0) {
		int r = sb_err_sys(err, -errno, "%s", what);

		close(fd);
		unlink(tmp);
		return r;
	}
	return fd;
}

int sb_fs_out_end(const char *tmp, const char *path, int r, const char *what, struct sb_err *err)
{
	if (r == 0 && rename(tmp, path) < 0)
		r = sb_err_sys(err, -errno, "%s: cannot rename %s into place", what, tmp);
	if (r < 0)
		unlink(tmp);
	return r;
}
