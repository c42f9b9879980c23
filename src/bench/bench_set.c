/* `bench --suite --target --set bench.KEY=VALUE`: the bench.* keys, parsed
 * with the units helpers. Other keys are rejected (-EINVAL, exit 2). */
#include <stdlib.h>
#include <string.h>

#include "bench/suite.h"
#include "util/units.h"

static int parse_bool(const char *key, const char *v, bool *out, struct sb_err *err)
{
	if (!strcmp(v, "true") || !strcmp(v, "yes") || !strcmp(v, "1") || !strcmp(v, "on"))
		*out = true;
	else if (!strcmp(v, "false") || !strcmp(v, "no") || !strcmp(v, "0") || !strcmp(v, "off"))
		*out = false;
	else
		return sb_err_set(err, -EINVAL, "--set %s=%s: not a boolean (true/false)", key, v);
	return 0;
}

static int parse_uint(const char *key, const char *v, uint32_t min, uint32_t max, uint32_t *out,
		      struct sb_err *err)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(v, &end, 10);
	if (errno || end == v || *end || v[0] == '-' || n < min || n > max)
		return sb_err_set(err, -EINVAL, "--set %s=%s: not a whole number in %u..%u", key, v, min, max);
	*out = (uint32_t)n;
	return 0;
}

/* The bench.* keys only; the full --set machinery lives in the spec module. */
int sb_bench_set(struct sb_bench_spec *b, const char *kv, struct sb_err *err)
{
	char key[64];
	const char *eq = strchr(kv, '='), *v;
	int rc = 0;

	if (!eq || eq == kv || (size_t)(eq - kv) >= sizeof(key))
		return sb_err_set(err, -EINVAL, "--set %s: expected KEY=VALUE", kv);
	memcpy(key, kv, (size_t)(eq - kv));
	key[eq - kv] = 0;
	v = eq + 1;
	if (!strcmp(key, "bench.size")) {
		rc = sb_size_parse(v, &b->size, err);
	} else if (!strcmp(key, "bench.chunk")) {
		rc = sb_size_parse(v, &b->chunk, err);
		if (rc == 0 && (b->chunk < 512 || b->chunk > (64u << 20)))
			return sb_err_set(err, -EINVAL, "--set %s: chunk must be 512 B..64 MiB", kv);
	} else if (!strcmp(key, "bench.runtime")) {
		rc = sb_duration_parse(v, &b->runtime_ns, err);
	} else if (!strcmp(key, "bench.ramp") || !strcmp(key, "bench.ramp_time")) {
		rc = sb_duration_parse(v, &b->ramp_ns, err);
	} else if (!strcmp(key, "bench.files")) {
		return parse_uint(key, v, 0, 1024, &b->files, err);
	} else if (!strcmp(key, "bench.repeat")) {
		return parse_uint(key, v, 1, 100, &b->repeat, err);
	} else if (!strcmp(key, "bench.copy_dir")) {
		if (strlen(v) >= sizeof(b->copy_dir) || v[0] != '/')
			return sb_err_set(err, -EINVAL, "--set %s: an absolute directory path (under 256 bytes)", kv);
		snprintf(b->copy_dir, sizeof(b->copy_dir), "%s", v);
		return 0;
	} else if (!strcmp(key, "bench.fsync")) {
		return parse_bool(key, v, &b->fsync, err);
	} else {
		return sb_err_set(err, -EINVAL, "--set %s: unknown key '%s' (here: bench.size, bench.runtime, "
				  "bench.ramp, bench.chunk, bench.files, bench.fsync, bench.repeat, bench.copy_dir)", kv, key);
	}
	if (rc < 0)
		sb_err_prefix(err, "--set %s: ", kv);
	return rc;
}

