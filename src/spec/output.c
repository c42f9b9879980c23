/* What a spec looks like from outside: JSON (from the tables), a one-line
 * summary, and the key reference for `validate --keys`. */
#include "spec/spec_int.h"

#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "util/units.h"

static struct json_object *section_json(const struct sb_opt_section *sec, const struct sb_stack_spec *s);

static struct json_object *opt_json(const struct sb_opt_section *sec, const struct sb_opt *o,
				    const struct sb_stack_spec *s)
{
	const void *f = sb_opt_field((void *)s, sec, o);
	struct json_object *a;
	unsigned i;

	switch (o->type) {
	case SB_OPT_SECTION:
		a = section_json(o->sub, s);
		if (o->sub->enabled_off < 0 || *(const bool *)((const char *)s + o->sub->enabled_off))
			sb_spec_json_parts(s, o, a);
		return a;
	case SB_OPT_NAME:
	case SB_OPT_STR:
	case SB_OPT_ENUM:
		return json_object_new_string(f);
	case SB_OPT_ENUMINT:
		return json_object_new_string(o->allowed[*(const int *)f]);
	case SB_OPT_U32:
		return json_object_new_int64(*(const uint32_t *)f);
	case SB_OPT_U32_AUTO:
		if (!*(const uint32_t *)f)
			return json_object_new_string("auto");
		return json_object_new_int64(*(const uint32_t *)f);
	case SB_OPT_PERCENT:
		return json_object_new_double(*(const double *)f);
	case SB_OPT_SIZE:
	case SB_OPT_DURATION:
		return json_object_new_int64((int64_t)*(const uint64_t *)f);
	case SB_OPT_SIZE_KIB:
		return json_object_new_int64((int64_t)*(const uint32_t *)f * 1024);
	case SB_OPT_BOOL:
		return json_object_new_boolean(*(const bool *)f);
	case SB_OPT_SUITES:
		a = json_object_new_array();
		for (i = 0; i < s->bench.nsuites; i++)
			json_object_array_add(a, json_object_new_string(s->bench.suites[i]));
		return a;
	case SB_OPT_DISKS:
		a = json_object_new_array();
		for (i = 0; i < s->devices.ndisks; i++)
			json_object_array_add(a, json_object_new_string(s->devices.disks[i]));
		return a;
	case SB_OPT_LVSIZE:
		return json_object_new_string(s->lvm.size);
	case SB_OPT_LUKSFLAGS: {
		const bool fl[] = { s->luks.no_read_workqueue, s->luks.no_write_workqueue,
				    s->luks.same_cpu_crypt, s->luks.allow_discards };

		a = json_object_new_array();
		for (i = 0; o->allowed[i]; i++)
			if (fl[i])
				json_object_array_add(a, json_object_new_string(o->allowed[i]));
		return a;
	}
	case SB_OPT_WORDS:
		a = json_object_new_array();
		for (i = 0; o->allowed[i]; i++)
			if (*(const uint32_t *)f & (1u << i))
				json_object_array_add(a, json_object_new_string(o->allowed[i]));
		return a;
	case SB_OPT_MATRIX:
		break;
	}
	return NULL;
}

static struct json_object *section_json(const struct sb_opt_section *sec, const struct sb_stack_spec *s)
{
	struct json_object *obj = json_object_new_object();
	const struct sb_opt *o;
	bool enabled = true;

	if (sec->enabled_off >= 0) {
		enabled = *(const bool *)((const char *)s + sec->enabled_off);
		json_object_object_add(obj, "enabled", json_object_new_boolean(enabled));
		if (!enabled)
			return obj;
	}
	for (o = sec->opts; o->key; o++) {
		if (o->type == SB_OPT_MATRIX || !sb_spec_row_applies(o, s))
			continue;
		if (!strcmp(sec->path, "devices")) {   /* only the kind in use */
			if (o->type == SB_OPT_DISKS && s->devices.kind != SB_DEVICES_DISKS)
				continue;
			if (o->type == SB_OPT_SECTION && s->devices.kind != SB_DEVICES_LOOP)
				continue;
		}
		json_object_object_add(obj, o->key, opt_json(sec, o, s));
	}
	if (!strcmp(sec->path, "devices"))
		json_object_object_add(obj, "kind", json_object_new_string(
			s->devices.kind == SB_DEVICES_DISKS ? "disks" : "loop"));
	return obj;
}

int sb_spec_to_json(const struct sb_stack_spec *s, struct json_object **out)
{
	struct json_object *o = section_json(sb_opt_root(), s);

	if (!o)
		return -ENOMEM;
	json_object_object_add(o, "source", json_object_new_string(s->source));
	*out = o;
	return 0;
}

/* The devices in the middle, every layer's piece around them (its part's
 * prefix/summary, in registry order), the filesystem last. */
void sb_spec_summary(const struct sb_stack_spec *s, char *buf, size_t len)
{
	char a[32];

	buf[0] = '\0';
	sb_spec_summary_parts(s, buf, len, true);
	if (s->devices.kind == SB_DEVICES_LOOP) {
		sb_size_format(s->devices.loop.size, a, sizeof(a));
		sb_spec_append(buf, len, "loop %u×%s (%u B sectors)", s->devices.loop.count, a,
			       s->devices.loop.sector_size);
	} else {
		sb_spec_append(buf, len, "%u disk%s", s->devices.ndisks, s->devices.ndisks == 1 ? "" : "s");
	}
	sb_spec_summary_parts(s, buf, len, false);
	sb_size_format(s->fs.block_size, a, sizeof(a));
	sb_spec_append(buf, len, " → %s %s", s->fs.type, a);
}

static void keys_section(FILE *f, const struct sb_opt_section *sec)
{
	const struct sb_opt *o;
	char path[128], allowed[256], lo[32], hi[32];

	for (o = sec->opts; o->key; o++) {
		snprintf(path, sizeof(path), "%s%s%s", sec->path, sec->path[0] ? "." : "", o->key);
		if (o->type == SB_OPT_SECTION) {
			fprintf(f, "%s:  %s%s\n", path, o->help,
				o->sub->enabled_off >= 0 ? " [optional section]" : "");
			keys_section(f, o->sub);
			continue;
		}
		fprintf(f, "  %-28s %s\n", path, o->help);
		fprintf(f, "  %-28s   type: %s", "", sb_opt_type_desc(o));
		if (o->allowed) {
			sb_opt_allowed_list(o->allowed, allowed, sizeof(allowed));
			fprintf(f, "; allowed: %s", allowed);
		}
		if ((o->type == SB_OPT_SIZE || o->type == SB_OPT_SIZE_KIB) && o->max) {
			sb_size_format(o->min, lo, sizeof(lo));
			sb_size_format(o->max, hi, sizeof(hi));
			fprintf(f, "; %s to %s", lo, hi);
		} else if ((o->type == SB_OPT_U32 || o->type == SB_OPT_U32_AUTO) && !o->allowed &&
			   (o->min || o->max)) {
			fprintf(f, "; %llu to %llu", (unsigned long long)o->min,
				(unsigned long long)(o->max ? o->max : UINT32_MAX));
		}
		if (o->def)
			fprintf(f, "; default: %s", o->def[0] ? o->def : "\"\"");
		else if (o->type != SB_OPT_MATRIX && o->type != SB_OPT_DISKS)
			fprintf(f, "; default: derived");
		if (sb_spec_row_fs_type(o))
			fprintf(f, "; only with fs.type: %s", sb_spec_row_fs_type(o));
		fputc('\n', f);
	}
}

void sb_spec_print_keys(FILE *f)
{
	fprintf(f, "Stack description keys (sizes: B, KiB, MiB, GiB, TiB binary; KB, MB, GB, TB decimal;\n"
		   "durations: ns, us, ms, s, m, h). Any key can be set with --set KEY=VALUE.\n\n");
	keys_section(f, sb_opt_root());
}
