#include "report/results.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "util/fs.h"
#include "util/json.h"

void sb_results_iso_time(time_t t, char *buf, size_t len)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void set_now(struct json_object *res, const char *key)
{
	char buf[32];

	sb_results_iso_time(time(NULL), buf, sizeof(buf));
	json_object_object_add(res, key, json_object_new_string(buf));
}

int sb_results_new(const char *stack_name, struct json_object *requested,
		   struct json_object **out, struct sb_err *err)
{
	struct json_object *res, *host = NULL, *stack;
	int r;

	*out = NULL;
	if (!stack_name || !*stack_name) {
		json_object_put(requested);
		return sb_err_set(err, -EINVAL, "results: a stack name is required");
	}
	r = sb_host_info(&host, err);
	if (r < 0) {
		json_object_put(requested);
		return r;
	}
	res = json_object_new_object();
	json_object_object_add(res, "schema", json_object_new_string(SB_RESULTS_SCHEMA));
	json_object_object_add(res, "stackbench_version", json_object_new_string(SB_VERSION));
	set_now(res, "started");
	json_object_object_add(res, "host", host);
	stack = json_object_new_object();
	json_object_object_add(stack, "name", json_object_new_string(stack_name));
	json_object_object_add(stack, "requested", requested ? requested : json_object_new_object());
	json_object_object_add(res, "stack", stack);
	json_object_object_add(res, "suites", json_object_new_array());
	*out = res;
	return 0;
}

int sb_results_set_built(struct json_object *res, struct json_object *built_array)
{
	struct json_object *stack;

	if (!json_object_object_get_ex(res, "stack", &stack)) {
		json_object_put(built_array);
		return -EINVAL;
	}
	json_object_object_add(stack, "built", built_array);
	return 0;
}

int sb_results_add_suite(struct json_object *res, struct json_object *suite_obj)
{
	struct json_object *suites;

	if (!json_object_object_get_ex(res, "suites", &suites) ||
	    !json_object_is_type(suites, json_type_array)) {
		suites = json_object_new_array();
		json_object_object_add(res, "suites", suites);
	}
	return json_object_array_add(suites, suite_obj) ? -ENOMEM : 0;
}

int sb_results_finish(struct json_object *res)
{
	set_now(res, "finished");
	return 0;
}

/* Stack names come from YAML; keep the file name to a safe alphabet. */
static void safe_name(const char *in, char *out, size_t len)
{
	size_t i;

	for (i = 0; in[i] && i + 1 < len; i++) {
		char c = in[i];
		out[i] = (c == '/' || c < 0x21 || c == 0x7f) ? '_' : c;
	}
	out[i] = '\0';
}

/* For the test suite: STACKBENCH_TEST_RESULTS_COPY=DIR gets a copy of
 * every results file written, so the harness can check each against
 * docs/results-schema.json after tests that delete their own files. Best
 * effort: a failed copy never fails the run. */
static void copy_for_tests(const char *text, const char *name, const char *stamp)
{
	const char *dir = getenv("STACKBENCH_TEST_RESULTS_COPY");
	static unsigned n;
	char path[4096];
	FILE *f;

	if (!dir || !*dir)
		return;
	snprintf(path, sizeof(path), "%s/%s-%s-%d-%u.json", dir, name, stamp, (int)getpid(), n++);
	f = fopen(path, "we");
	if (!f)
		return;
	fputs(text, f);
	fputc('\n', f);
	fclose(f);
}

int sb_results_write(struct json_object *res, const char *dir,
		     char *path_out, size_t len, struct sb_err *err)
{
	char name[256], stamp[32], path[4096], tmp[4200];
	const char *text;
	struct tm tm;
	time_t now = time(NULL);
	int fd = -1, r, i;

	r = sb_mkdir_p(dir, 0755, err);
	if (r < 0)
		return r;
	safe_name(sb_results_stack_name(res), name, sizeof(name));
	if (!*name)
		snprintf(name, sizeof(name), "unnamed");
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);

	text = json_object_to_json_string_ext(res, JSON_C_TO_STRING_PRETTY |
					      JSON_C_TO_STRING_SPACED |
					      JSON_C_TO_STRING_NOSLASHESCAPE);

	snprintf(tmp, sizeof(tmp), "%s/.%s-%s.json.XXXXXX", dir, name, stamp);
	fd = mkstemp(tmp);
	if (fd < 0)
		return sb_err_sys(err, -errno, "cannot create a file in %s", dir);
	r = sb_fs_write_synced(fd, text, tmp, err);
	if (r)
		goto out_unlink;
	if (fchmod(fd, 0644) < 0) {
		r = sb_err_sys(err, -errno, "cannot write %s", tmp);
		goto out_unlink;
	}
	close(fd);
	fd = -1;

	/* link() fails with EEXIST instead of replacing, which gives a unique
	 * name without a check-then-rename race. */
	for (i = 1; i < 1000; i++) {
		if (i == 1)
			snprintf(path, sizeof(path), "%s/%s-%s.json", dir, name, stamp);
		else
			snprintf(path, sizeof(path), "%s/%s-%s-%d.json", dir, name, stamp, i);
		if (link(tmp, path) == 0)
			break;
		if (errno != EEXIST) {
			r = sb_err_sys(err, -errno, "cannot create %s", path);
			goto out_unlink;
		}
	}
	if (i == 1000) {
		r = sb_err_set(err, -EEXIST, "%s: too many results files with this name", path);
		goto out_unlink;
	}
	unlink(tmp);
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	if (path_out)
		snprintf(path_out, len, "%s", path);
	copy_for_tests(text, name, stamp);
	return 0;

out_unlink:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	return r;
}

int sb_results_check(struct json_object *res, const char *what, struct sb_err *err)
{
	struct json_object *v;

	if (!json_object_is_type(res, json_type_object))
		return sb_err_set(err, -EINVAL, "%s: not a stackbench results file (not a JSON object)", what);
	if (!json_object_object_get_ex(res, "schema", &v))
		return sb_err_set(err, -EINVAL, "%s: not a stackbench results file: the top level has no \"schema\"",
				  what);
	if (!json_object_is_type(v, json_type_string) || strcmp(json_object_get_string(v), SB_RESULTS_SCHEMA))
		return sb_err_set(err, -EINVAL, "%s: unsupported results schema %s (this stackbench reads \"%s\")",
				  what, json_object_to_json_string_ext(v, JSON_C_TO_STRING_NOSLASHESCAPE), SB_RESULTS_SCHEMA);
	return sb_results_shape_check(res, what, err);
}

/* Anything but white space after the document's end? */
static int trailing(const char *buf, size_t len, size_t end)
{
	for (; end < len; end++)
		if (!strchr(" \t\r\n", buf[end]) || !buf[end])
			return 1;
	return 0;
}

/* json-c's own message for a file cut short is "continue": say what it
 * means, and where the parse stopped otherwise. */
int sb_results_parse(const char *buf, size_t len, const char *path, struct json_object **out,
		     struct sb_err *err)
{
	struct json_tokener *tok = json_tokener_new();
	enum json_tokener_error je;
	int rc = 0;

	*out = NULL;
	if (!tok)
		return sb_err_set(err, -ENOMEM, "out of memory");
	if (len > SB_RESULTS_MAX_BYTES)
		rc = sb_err_set(err, -EINVAL, "%s: not a results file (a regular file of at most %d MiB)",
				path, SB_RESULTS_MAX_BYTES >> 20);
	else
		*out = json_tokener_parse_ex(tok, buf, (int)len);
	je = json_tokener_get_error(tok);
	if (rc)
		;
	else if (!*out && (je == json_tokener_continue || len == 0))
		rc = sb_err_set(err, -EINVAL, "%s: truncated results file: the JSON ends after %zu "
				"bytes, before it is complete", path, len);
	else if (!*out)
		rc = sb_err_set(err, -EINVAL, "%s: not a valid JSON results file: %s at byte %zu",
				path, json_tokener_error_desc(je), json_tokener_get_parse_end(tok));
	else if (trailing(buf, len, json_tokener_get_parse_end(tok)))
		rc = sb_err_set(err, -EINVAL, "%s: not one JSON document: more follows the first, at "
				"byte %zu", path, json_tokener_get_parse_end(tok));
	if (rc == 0)
		rc = sb_results_check(*out, path, err);
	if (rc && *out) {
		json_object_put(*out);
		*out = NULL;
	}
	json_tokener_free(tok);
	return rc;
}

static int parse_file(const char *path, struct json_object **out, struct sb_err *err)
{
	struct stat st;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int rc = 0;

	int fd;

	*out = NULL;
	/* O_NONBLOCK: a FIFO at the path (or a link to one) would block the open
	 * until a writer came; it opens at once and fails the regular-file check */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return sb_err_set(err, -EINVAL, "%s: cannot read results file: %s", path, strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > SB_RESULTS_MAX_BYTES) {
		close(fd);
		return sb_err_set(err, -EINVAL, "%s: not a results file (a regular file of at most %d MiB)",
				  path, SB_RESULTS_MAX_BYTES >> 20);
	}
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return sb_err_set(err, -ENOMEM, "%s: cannot read results file: %s", path, strerror(errno));
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		fclose(f);
		return sb_err_set(err, -ENOMEM, "out of memory");
	}
	len = fread(buf, 1, (size_t)st.st_size, f);
	if (ferror(f))
		rc = sb_err_sys(err, -EINVAL, "%s: cannot read results file", path);
	fclose(f);
	if (rc == 0)
		rc = sb_results_parse(buf, len, path, out, err);
	free(buf);
	return rc;
}

int sb_results_read(const char *path, struct json_object **out, struct sb_err *err)
{
	struct json_object *res;
	int r;

	*out = NULL;
	if (access(path, R_OK) < 0)
		return sb_err_set(err, -EINVAL, "%s: cannot read results file: %s", path, strerror(errno));
	r = parse_file(path, &res, err);
	if (r < 0)
		return r;
	*out = res;
	return 0;
}

const char *sb_results_stack_name(struct json_object *res)
{
	struct json_object *stack, *name;

	if (json_object_object_get_ex(res, "stack", &stack) &&
	    json_object_object_get_ex(stack, "name", &name))
		return json_object_get_string(name);
	return "";
}

const char *sb_results_host_name(struct json_object *res)
{
	struct json_object *host, *v;

	if (!json_object_object_get_ex(res, "host", &host))
		return "";
	if (json_object_object_get_ex(host, "label", &v) && json_object_is_type(v, json_type_string) &&
	    *json_object_get_string(v))
		return json_object_get_string(v);
	if (json_object_object_get_ex(host, "hostname", &v) && json_object_is_type(v, json_type_string))
		return json_object_get_string(v);
	return "";
}

struct json_object *sb_results_built_layer(struct json_object *res, const char *layer)
{
	struct json_object *stack, *built, *l, *name;
	size_t i;

	if (!json_object_object_get_ex(res, "stack", &stack) ||
	    !json_object_object_get_ex(stack, "built", &built) ||
	    !json_object_is_type(built, json_type_array))
		return NULL;
	for (i = 0; i < json_object_array_length(built); i++) {
		l = json_object_array_get_idx(built, i);
		if (json_object_object_get_ex(l, "layer", &name) &&
		    !strcmp(json_object_get_string(name), layer))
			return l;
	}
	return NULL;
}

/* ---- the reading side ---- */

/* o.key when it has type t (json_type_null: any), else NULL. */
static struct json_object *get_typed(struct json_object *o, const char *key, json_type t)
{
	struct json_object *v = sb_json_get(o, key);

	if (!v)
		return NULL;
	return t == json_type_null || json_object_is_type(v, t) ? v : NULL;
}

const char *sb_results_started(struct json_object *res)
{
	return sb_json_str(res, "started", "");
}

const char *sb_results_finished(struct json_object *res)
{
	return sb_json_str(res, "finished", "");
}

struct json_object *sb_results_host(struct json_object *res)
{
	return get_typed(res, "host", json_type_object);
}

struct json_object *sb_results_host_outer(struct json_object *res)
{
	return get_typed(sb_results_host(res), "outer", json_type_object);
}

bool sb_results_sandboxed(struct json_object *res)
{
	struct json_object *v = get_typed(sb_results_host(res), "sandbox", json_type_null);

	return v && json_object_get_boolean(v);
}

struct json_object *sb_results_requested(struct json_object *res)
{
	return get_typed(get_typed(res, "stack", json_type_object), "requested", json_type_object);
}

struct json_object *sb_results_built(struct json_object *res)
{
	return get_typed(get_typed(res, "stack", json_type_object), "built", json_type_array);
}

struct json_object *sb_results_planned(struct json_object *res)
{
	return get_typed(get_typed(res, "stack", json_type_object), "planned", json_type_array);
}

struct json_object *sb_results_layers(struct json_object *res)
{
	struct json_object *b = sb_results_built(res);

	return b && json_object_array_length(b) ? b : sb_results_planned(res);
}

struct json_object *sb_results_notes(struct json_object *res)
{
	return get_typed(res, "notes", json_type_array);
}

struct json_object *sb_results_per_layer(struct json_object *res)
{
	return get_typed(res, "per_layer", json_type_array);
}

int sb_results_set_per_layer(struct json_object *res, struct json_object *rows)
{
	return json_object_object_add(res, "per_layer", rows) ? -ENOMEM : 0;
}

size_t sb_results_nsuites(struct json_object *res)
{
	struct json_object *s = get_typed(res, "suites", json_type_array);

	return s ? json_object_array_length(s) : 0;
}

struct json_object *sb_results_suite(struct json_object *res, size_t i)
{
	struct json_object *s = get_typed(res, "suites", json_type_array);

	return s && i < json_object_array_length(s) ? json_object_array_get_idx(s, i) : NULL;
}

const char *sb_results_suite_name(struct json_object *suite)
{
	return sb_json_str(suite, "suite", "");
}

struct json_object *sb_results_suite_figures(struct json_object *suite)
{
	return get_typed(suite, "figures", json_type_object);
}

struct json_object *sb_results_suite_notes(struct json_object *suite)
{
	return get_typed(suite, "notes", json_type_array);
}
