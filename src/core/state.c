#include "core/state.h"
#include "util/fs.h"
#include "util/json.h"
#include "sys/sysfs.h"

#include <dirent.h>
#include <signal.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

const char *sb_state_dir(void)
{
	const char *d = getenv("STACKBENCH_STATE_DIR");

	return d && *d ? d : "/run/stackbench";
}

/* Stack names are validated by the spec parser, but teardown takes them
 * from the command line: never let one walk out of the state directory. */
static int check_name(const char *stack, struct sb_err *err)
{
	if (!stack[0] || stack[0] == '.' || strchr(stack, '/') || strlen(stack) >= SB_NAME_MAX)
		return sb_err_set(err, -EINVAL, "\"%s\" is not a stack name", stack);
	return 0;
}

static int state_path(const char *stack, char *out, size_t len, struct sb_err *err)
{
	/* Mount points (DIR/mnt/STACK) and temp files (DIR/STACK.state.tmp.PID)
	 * live under it too: all must fit SB_PATH_MAX whole. */
	if (strlen(sb_state_dir()) > SB_PATH_MAX - SB_NAME_MAX - 32)
		return sb_err_set(err, -ENAMETOOLONG, "the state directory %.60s... is too long (%zu "
				  "characters; at most %d)", sb_state_dir(), strlen(sb_state_dir()),
				  SB_PATH_MAX - SB_NAME_MAX - 32);
	if ((size_t)snprintf(out, len, "%s/%s.state", sb_state_dir(), stack) >= len)
		return sb_err_set(err, -ENAMETOOLONG, "state path too long");
	return 0;
}

static struct json_object *to_json(const struct sb_state *st)
{
	struct json_object *o = json_object_new_object(), *arr = json_object_new_array();
	unsigned i;

	json_object_object_add(o, "stack", json_object_new_string(st->stack));
	json_object_object_add(o, "source", json_object_new_string(st->source));
	json_object_object_add(o, "pid", json_object_new_int(st->pid));
	json_object_object_add(o, "started", json_object_new_string(st->started));
	for (i = 0; i < st->nobj; i++)
		json_object_array_add(arr, sb_json_strings("layer", st->obj[i].layer, "kind", st->obj[i].kind,
							   "id", st->obj[i].id, "extra", st->obj[i].extra, NULL));
	json_object_object_add(o, "objects", arr);
	if (st->npending) {
		arr = json_object_new_array();
		for (i = 0; i < st->npending; i++) {
			struct json_object *p = json_object_new_object();

			json_object_object_add(p, "pid", json_object_new_int(st->pending[i].pid));
			json_object_object_add(p, "start", json_object_new_uint64(st->pending[i].start));
			json_object_object_add(p, "doing", json_object_new_string(st->pending[i].doing));
			json_object_array_add(arr, p);
		}
		json_object_object_add(o, "pending", arr);
	}
	return o;
}

static int fsync_dir(const char *dir, struct sb_err *err)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return sb_err_sys(err, -errno, "cannot open %s", dir);
	if (fsync(fd)) {
		int e = -errno;
		close(fd);
		return sb_err_sys(err, e, "cannot fsync %s", dir);
	}
	close(fd);
	return 0;
}

/* Write tmp, fsync it, then publish it: rename over the old file, or, for
 * a new state (excl), link() so that two builds of the same stack racing
 * cannot both win. Then fsync the directory so the name is durable too. */
static int write_file(const struct sb_state *st, bool excl, struct sb_err *err)
{
	char tmp[SB_PATH_MAX + 32];
	struct json_object *o;
	const char *text;
	int fd, rc = 0;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp.%d", st->path, (int)getpid()) >= sizeof(tmp))
		return sb_err_set(err, -ENAMETOOLONG, "state path %s too long", st->path);
	o = to_json(st);
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
	/* 0644: no secrets in here, and `status` works without root. */
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		rc = sb_err_sys(err, -errno, "cannot create %s", tmp);
		goto out;
	}
	rc = sb_fs_write_synced(fd, text, tmp, err);
	close(fd);
	if (rc)
		goto out_unlink;
	if (excl) {
		if (link(tmp, st->path)) {
			rc = errno == EEXIST ? sb_err_set(err, -EEXIST, "%s appeared meanwhile (another build of %s?)",
							 st->path, st->stack)
					     : sb_err_sys(err, -errno, "cannot create %s", st->path);
			goto out_unlink;
		}
		unlink(tmp);
	} else if (rename(tmp, st->path)) {
		rc = sb_err_sys(err, -errno, "cannot replace %s", st->path);
		goto out_unlink;
	}
	rc = fsync_dir(sb_state_dir(), err);
	goto out;
out_unlink:
	unlink(tmp);
out:
	json_object_put(o);
	return rc;
}

/* false if the value does not fit: a cut path would name another object */
static bool copy_str(char *dst, size_t len, struct json_object *o, const char *key)
{
	struct json_object *v;

	dst[0] = '\0';
	if (json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string))
		return (size_t)snprintf(dst, len, "%s", json_object_get_string(v)) < len;
	return true;
}

/* "pending": the processes an earlier teardown left at a removal that did
 * not finish in time (sb_state_add_pending). */
static int pending_from_json(struct json_object *o, struct sb_state *st, struct sb_err *err)
{
	struct json_object *arr, *v;
	size_t i, n;

	if (!json_object_object_get_ex(o, "pending", &arr))
		return 0;
	n = json_object_is_type(arr, json_type_array) ? json_object_array_length(arr) : 0;
	if (n > SB_STATE_MAX_PENDING)
		return sb_err_set(err, -E2BIG, "%s: %zu pending processes, at most %d", st->path, n,
				  SB_STATE_MAX_PENDING);
	for (i = 0; i < n; i++) {
		struct json_object *p = json_object_array_get_idx(arr, i);
		struct sb_state_pending *sp = &st->pending[i];

		sp->pid = json_object_object_get_ex(p, "pid", &v) ? json_object_get_int(v) : 0;
		sp->start = json_object_object_get_ex(p, "start", &v) ? json_object_get_uint64(v) : 0;
		if (!copy_str(sp->doing, sizeof(sp->doing), p, "doing") || sp->pid <= 0 || !sp->start)
			return sb_err_set(err, -EINVAL, "%s: pending process %zu is not one stackbench "
					  "recorded", st->path, i);
	}
	st->npending = (unsigned)n;
	return 0;
}

static int from_json(struct json_object *o, struct sb_state *st, struct sb_err *err)
{
	struct json_object *arr, *v;
	size_t i, n;

	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "objects", &arr) || !json_object_is_type(arr, json_type_array))
		return sb_err_set(err, -EINVAL, "%s: not a stackbench state file", st->path);
	copy_str(st->stack, sizeof(st->stack), o, "stack");
	copy_str(st->source, sizeof(st->source), o, "source");
	copy_str(st->started, sizeof(st->started), o, "started");
	st->pid = json_object_object_get_ex(o, "pid", &v) ? json_object_get_int(v) : 0;
	n = json_object_array_length(arr);
	if (n > SB_STATE_MAX_OBJS)
		return sb_err_set(err, -E2BIG, "%s: %zu objects, at most %d", st->path, n, SB_STATE_MAX_OBJS);
	for (i = 0; i < n; i++) {
		struct json_object *ob = json_object_array_get_idx(arr, i);
		struct sb_state_obj *so = &st->obj[i];

		if (!copy_str(so->layer, sizeof(so->layer), ob, "layer") ||
		    !copy_str(so->kind, sizeof(so->kind), ob, "kind") ||
		    !copy_str(so->id, sizeof(so->id), ob, "id") ||
		    !copy_str(so->extra, sizeof(so->extra), ob, "extra"))
			return sb_err_set(err, -ENAMETOOLONG, "%s: object %zu has a field longer than "
					  "stackbench records; not a state it wrote", st->path, i);
		if (!so->layer[0] || !so->kind[0] || !so->id[0])
			return sb_err_set(err, -EINVAL, "%s: object %zu lacks layer, kind or id", st->path, i);
	}
	st->nobj = n;
	return pending_from_json(o, st, err);
}

/* Teardown acts on what a state file says, as root: only a file that
 * stackbench wrote counts. It must be a regular file (not a link) in the
 * trusted state directory, owned by us and writable by no one else. */
static int open_state_file(const char *stack, const char *path, struct sb_err *err)
{
	char name[SB_NAME_MAX + 8];
	struct stat sb;
	int dfd, fd;

	dfd = sb_dir_open_trusted(sb_state_dir(), false, err);
	if (dfd == -ENOENT) {
		sb_err_clear(err);
		return sb_err_set(err, -ENOENT, "no stack named %s is recorded in %s", stack, sb_state_dir());
	}
	if (dfd < 0)
		return dfd;
	snprintf(name, sizeof(name), "%s.state", stack);
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	close(dfd);
	if (fd < 0)
		return errno == ENOENT ? sb_err_set(err, -ENOENT, "no stack named %s is recorded in %s",
						   stack, sb_state_dir())
		       : errno == ELOOP ? sb_err_set(err, -SB_EREFUSED, "%s is a symbolic link, not a state "
						     "file stackbench wrote; not acting on it", path)
		       : sb_err_sys(err, -errno, "cannot open %s", path);
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode) || sb.st_uid != geteuid() ||
	    (sb.st_mode & (S_IWGRP | S_IWOTH))) {
		close(fd);
		return sb_err_set(err, -SB_EREFUSED, "%s is not a state file stackbench wrote (a regular file "
				  "owned by uid %u, writable by no one else); not acting on it", path,
				  (unsigned)geteuid());
	}
	return fd;
}

int sb_state_load(const char *stack, struct sb_state *st, struct sb_err *err)
{
	struct json_object *o;
	int rc;

	memset(st, 0, sizeof(*st));
	rc = check_name(stack, err);
	if (!rc)
		rc = state_path(stack, st->path, sizeof(st->path), err);
	if (rc)
		return rc;
	rc = open_state_file(stack, st->path, err);
	if (rc < 0)
		return rc;
	o = json_object_from_fd(rc);
	close(rc);
	if (!o)
		return sb_err_set(err, -EINVAL, "%s: cannot parse: %s", st->path, json_util_get_last_err());
	rc = from_json(o, st, err);
	json_object_put(o);
	if (!rc && strcmp(st->stack, stack))
		rc = sb_err_set(err, -EINVAL, "%s records stack \"%s\", not \"%s\"", st->path, st->stack, stack);
	return rc;
}

static void leftover_msg(const struct sb_state *old, struct sb_err *err)
{
	char objs[600] = "";
	size_t n = 0;
	unsigned i;

	for (i = 0; i < old->nobj && n < sizeof(objs); i++)
		n += snprintf(objs + n, sizeof(objs) - n, "%s%s %s", i ? ", " : "",
			      old->obj[i].kind, old->obj[i].id);
	sb_err_set(err, -EEXIST,
		   "an earlier run of %s (pid %d, started %s) left %s%s; run `stackbench teardown %s` first",
		   old->stack, old->pid, old->started[0] ? old->started : "?",
		   old->nobj ? "these objects: " : "its state file and no objects", objs, old->stack);
}

int sb_state_create(struct sb_state *st, const char *stack, const char *source, struct sb_err *err)
{
	struct sb_state *old;
	struct sb_err lerr = { 0 };
	time_t now = time(NULL);
	struct tm tm;
	int rc;

	memset(st, 0, sizeof(*st));
	rc = check_name(stack, err);
	if (!rc) {
		int dfd = sb_dir_open_trusted(sb_state_dir(), true, err);

		rc = dfd < 0 ? dfd : close(dfd);
	}
	if (!rc)
		rc = state_path(stack, st->path, sizeof(st->path), err);
	if (rc)
		return rc;
	if (!faccessat(AT_FDCWD, st->path, F_OK, AT_SYMLINK_NOFOLLOW)) {
		old = calloc(1, sizeof(*old));
		if (!old)
			return sb_err_set(err, -ENOMEM, "out of memory");
		if (sb_state_load(stack, old, &lerr))
			rc = sb_err_set(err, -EEXIST, "%s exists but cannot be read (%s); run `stackbench teardown %s` or remove it",
					st->path, lerr.msg, stack);
		else {
			leftover_msg(old, err);
			rc = -EEXIST;
		}
		free(old);
		return rc;
	}
	snprintf(st->stack, sizeof(st->stack), "%s", stack);
	snprintf(st->source, sizeof(st->source), "%s", source ? source : "");
	st->pid = getpid();
	gmtime_r(&now, &tm);
	strftime(st->started, sizeof(st->started), "%Y-%m-%dT%H:%M:%SZ", &tm);
	rc = write_file(st, true, err);
	if (rc == -EEXIST) {
		/* Lost a race with another build: report it as a leftover. */
		sb_err_clear(err);
		return sb_state_create(st, stack, source, err);
	}
	return rc;
}

int sb_state_add(struct sb_state *st, const char *layer, const char *kind,
		 const char *id, const char *extra, struct sb_err *err)
{
	struct sb_state_obj *o;
	int rc;

	if (st->nobj >= SB_STATE_MAX_OBJS)
		return sb_err_set(err, -E2BIG, "state of %s is full (%d objects)", st->stack, SB_STATE_MAX_OBJS);
	/* A cut id names some other object: teardown would miss this one. */
	if (strlen(layer) >= sizeof(o->layer) || strlen(kind) >= sizeof(o->kind) ||
	    strlen(id) >= sizeof(o->id) || (extra && strlen(extra) >= sizeof(o->extra)))
		return sb_err_set(err, -ENAMETOOLONG, "cannot record %s %s %.80s...: longer than the "
				  "state can hold (%zu)", layer, kind, id, sizeof(o->id) - 1);
	o = &st->obj[st->nobj];
	memset(o, 0, sizeof(*o));
	snprintf(o->layer, sizeof(o->layer), "%s", layer);
	snprintf(o->kind, sizeof(o->kind), "%s", kind);
	snprintf(o->id, sizeof(o->id), "%s", id);
	snprintf(o->extra, sizeof(o->extra), "%s", extra ? extra : "");
	st->nobj++;
	rc = write_file(st, false, err);
	if (rc) {
		st->nobj--; /* not recorded, so the caller must not create it */
		return rc;
	}
	{
		char point[40];

		snprintf(point, sizeof(point), "%s:%s", o->layer, o->kind);
		sb_test_pause(point);
	}
	return 0;
}

int sb_state_set_extra(struct sb_state *st, const char *layer, const char *kind,
		       const char *id, const char *extra, struct sb_err *err)
{
	unsigned i;
	int rc;

	for (i = st->nobj; i-- > 0;) {
		struct sb_state_obj *o = &st->obj[i];

		if (strcmp(o->layer, layer) || strcmp(o->kind, kind) || strcmp(o->id, id))
			continue;
		if (extra && strlen(extra) >= sizeof(o->extra))
			return sb_err_set(err, -ENAMETOOLONG, "cannot record %.80s...: longer than the state "
					  "can hold", extra);
		snprintf(o->extra, sizeof(o->extra), "%s", extra ? extra : "");
		rc = write_file(st, false, err);
		if (!rc) {
			char point[48];

			snprintf(point, sizeof(point), "%s:%s:extra", o->layer, o->kind);
			sb_test_pause(point);
		}
		return rc;
	}
	return sb_err_set(err, -ENOENT, "state of %s has no %s %s %s", st->stack, layer, kind, id);
}

int sb_state_remove(struct sb_state *st, unsigned idx, struct sb_err *err)
{
	if (idx >= st->nobj)
		return sb_err_set(err, -EINVAL, "state of %s has no object %u", st->stack, idx);
	memmove(&st->obj[idx], &st->obj[idx + 1], (st->nobj - idx - 1) * sizeof(st->obj[0]));
	st->nobj--;
	return write_file(st, false, err);
}

int sb_state_save(struct sb_state *st, struct sb_err *err)
{
	return write_file(st, false, err);
}

int sb_state_delete(struct sb_state *st, struct sb_err *err)
{
	if (unlink(st->path) && errno != ENOENT)
		return sb_err_sys(err, -errno, "cannot remove %s", st->path);
	return fsync_dir(sb_state_dir(), err);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "NAME.state.tmp.PID" of a process that is gone: write_file was killed
 * between writing it and renaming it into place. Nothing refers to it;
 * teardown --all removes it so no kill can leave a file behind. */
static bool stale_tmp(const char *name)
{
	const char *t = strstr(name, ".state.tmp.");
	char *end;
	long pid;

	if (!t || t == name)
		return false;
	pid = strtol(t + 11, &end, 10);
	return pid > 0 && !*end && kill((pid_t)pid, 0) && errno == ESRCH;
}

int sb_state_list(char ***names, unsigned *n, struct sb_err *err)
{
	const char *dir = sb_state_dir();
	struct dirent *de;
	char **v = NULL;
	unsigned cnt = 0, cap = 0;
	DIR *d;

	*names = NULL;
	*n = 0;
	{
		int dfd = sb_dir_open_trusted(dir, false, err);

		if (dfd == -ENOENT) {
			sb_err_clear(err);
			return 0;
		}
		if (dfd < 0)
			return dfd;
		d = fdopendir(dfd);
		if (!d) {
			close(dfd);
			return sb_err_sys(err, -errno, "cannot read %s", dir);
		}
	}
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (stale_tmp(de->d_name))
			unlinkat(dirfd(d), de->d_name, 0);
		if (de->d_name[0] == '.' || len <= 6 || strcmp(de->d_name + len - 6, ".state"))
			continue;
		if (cnt == cap) {
			char **nv = realloc(v, (cap = cap ? cap * 2 : 8) * sizeof(*v));
			if (!nv)
				goto oom;
			v = nv;
		}
		v[cnt] = strndup(de->d_name, len - 6);
		if (!v[cnt])
			goto oom;
		cnt++;
	}
	closedir(d);
	if (cnt)
		qsort(v, cnt, sizeof(*v), cmp_str);
	*names = v;
	*n = cnt;
	return 0;
oom:
	closedir(d);
	while (cnt)
		free(v[--cnt]);
	free(v);
	return sb_err_set(err, -ENOMEM, "out of memory");
}
