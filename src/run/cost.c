/* See cost.h. */
#include "run/cost.h"

#include <string.h>
#include <sys/statvfs.h>
#include <sys/sysinfo.h>

#include "core/layer.h"
#include "core/stack.h"
#include "sandbox/sandbox.h"
#include "util/units.h"

#define MiB (1ULL << 20)

/* What build-and-test measures besides the suites: each block layer's
 * devices right after it is built (bench.per_layer: three short jobs per
 * device, 64 MiB or 2 s each) and, once per suite, the machine's ceiling
 * on a RAM disk (the same suite; faster than the stack, rarely slower). */
/* The devices bench.per_layer measures: every layer measured per layer
 * (its ops say so), one device per member below the array, else one. */
static unsigned per_layer_devs(const struct sb_stack_spec *s)
{
	unsigned members = s->devices.kind == SB_DEVICES_LOOP ? s->devices.loop.count : s->devices.ndisks;
	const struct sb_layer_ops *ops;
	unsigned i, n = 0;

	for (i = 0; (ops = sb_layer_at(i)); i++)
		if (ops->per_layer && sb_layer_wanted(ops, s))
			n += ops->order < SB_ORDER_ARRAY ? members : 1;
	return n;
}

static void add_measure_extras(const struct sb_stack_spec *s, struct sb_cost *c)
{
	unsigned ndev, i;
	double lo, hi;

	if (s->bench.per_layer && !s->faults.enabled) {
		ndev = per_layer_devs(s);
		c->min_s += ndev * 2.0;
		c->max_s += ndev * 12.0;
	}
	for (i = 0; i < s->bench.nsuites; i++) {
		sb_sizing_estimate(s->bench.suites[i], &c->sz[i], &s->bench, &lo, &hi);
		c->min_s += lo * 0.2;
		c->max_s += hi;
	}
}

void sb_cost_compute(const struct sb_stack_spec *s, unsigned repeat, int sandbox, bool in_sandbox,
		     struct sb_cost *c)
{
	struct sb_kernel_needs needs = { 0 };
	uint64_t room, biggest = 0, dev = sb_spec_device_bytes(s);
	struct sysinfo si;
	unsigned i;

	memset(c, 0, sizeof(*c));
	c->repeat = repeat ? repeat : (s->bench.repeat ? s->bench.repeat : 1);
	sb_stack_needs(s, &needs);
	c->sandbox = sb_sandbox_would_use(sandbox, in_sandbox, &needs);
	if (c->sandbox)
		c->ram = sb_sandbox_mem_bytes();
	else if (sysinfo(&si) == 0)
		c->ram = (uint64_t)si.totalram * si.mem_unit;
	c->fs_free = sb_spec_fs_free_estimate(s);
	room = sb_sizing_room(c->fs_free);
	c->min_s = SB_SIZING_STACK_MIN_S + (c->sandbox ? SB_SIZING_BOOT_MIN_S : 0);
	c->max_s = SB_SIZING_STACK_MAX_S + (c->sandbox ? SB_SIZING_BOOT_MAX_S : 0);
	for (i = 0; i < s->bench.nsuites; i++) {
		double lo, hi;

		sb_sizing_choose(s->bench.suites[i], s->bench.size, c->ram, room, &c->sz[i]);
		sb_sizing_estimate(s->bench.suites[i], &c->sz[i], &s->bench, &lo, &hi);
		c->suites_lo += lo;
		c->suites_hi += hi;
		if (c->sz[i].size > biggest)
			biggest = c->sz[i].size;
	}
	add_measure_extras(s, c);
	c->once_lo = c->min_s;
	c->once_hi = c->max_s;
	c->min_s += c->suites_lo * c->repeat;
	c->max_s += c->suites_hi * c->repeat;
	if (!repeat && !s->bench.repeat)
		sb_cost_rounds(c, s->bench.min_repeat, s->bench.max_repeat, s->bench.max_time_ns / 1e9);
	if (s->devices.kind == SB_DEVICES_LOOP) {
		c->backing = (uint64_t)s->devices.loop.count * s->devices.loop.size;
		/* the throwaway kernel's members are preallocated host files */
		if (c->sandbox) {
			c->written = c->backing;
			return;
		}
		/* the suites' files (removed after each suite) plus what mkfs
		 * writes (inode tables, journal: ~2%) and the LUKS header, on
		 * every copy */
		c->written = (biggest + dev / 50 + 16 * MiB) * sb_spec_copies(s);
		if (c->written > c->backing)
			c->written = c->backing;
	}
}

void sb_cost_rounds(struct sb_cost *c, unsigned min, unsigned max, double max_time_s)
{
	double lo, hi;

	c->rounds = true;
	c->min_rounds = min;
	c->max_rounds = max;
	c->max_time_s = max_time_s;
	c->repeat = max;
	/* the rounds after the first build each build and tear down again */
	lo = c->suites_lo * min + (min - 1) * SB_SIZING_STACK_MIN_S;
	hi = c->suites_hi * max + (max - 1) * SB_SIZING_STACK_MAX_S;
	/* --max-time counts from the first round: none started past it */
	if (max_time_s > 0 && hi > max_time_s)
		hi = max_time_s;
	if (max_time_s > 0 && lo > max_time_s)
		lo = max_time_s;
	c->min_s = c->once_lo + lo;
	c->max_s = c->once_hi + hi;
}

void sb_cost_add_rebuilds(struct sb_cost *c, unsigned n)
{
	c->min_s += n * SB_SIZING_STACK_MIN_S;
	c->max_s += n * SB_SIZING_STACK_MAX_S;
}

static const char *loop_free(const struct sb_stack_spec *s, char *buf, size_t len)
{
	char dir[SB_PATH_MAX], *slash;
	struct statvfs v;

	snprintf(dir, sizeof(dir), "%s", s->devices.loop.dir);
	while (statvfs(dir, &v) < 0) {
		slash = strrchr(dir, '/');
		if (!slash || slash == dir)
			return "unknown";
		*slash = '\0';
	}
	sb_size_format_human((uint64_t)v.f_bavail * v.f_frsize, buf, len);
	return buf;
}

void sb_cost_summary(const struct sb_stack_spec *s, const struct sb_cost *c, char *buf, size_t len)
{
	char lo[32], hi[32], w[32], e[32];

	sb_sizing_format_duration(c->min_s, lo, sizeof(lo));
	sb_sizing_format_duration(c->max_s, hi, sizeof(hi));
	if (s->devices.kind != SB_DEVICES_LOOP) {
		snprintf(buf, len, "about %s to %s; on %u disk%s (all their data destroyed)", lo, hi,
			 s->devices.ndisks, s->devices.ndisks == 1 ? "" : "s");
		return;
	}
	sb_size_format_human(c->written, w, sizeof(w));
	sb_size_format(s->devices.loop.size, e, sizeof(e));
	snprintf(buf, len, "about %s to %s, up to %s written of %u x %s %s files under %s", lo, hi, w,
		 s->devices.loop.count, e, c->sandbox ? "preallocated" : "sparse", s->devices.loop.dir);
}

void sb_cost_print(FILE *f, const struct sb_stack_spec *s, const struct sb_cost *c)
{
	char a[32], b[32], d[32];
	unsigned i;

	fprintf(f, "cost:\n");
	if (s->devices.kind == SB_DEVICES_LOOP) {
		sb_size_format(s->devices.loop.size, a, sizeof(a));
		sb_size_format_human(c->written, b, sizeof(b));
		fprintf(f, "  disk: %u %s file%s of %s in %s (%s free there); "
			"about %s of them fill up\n", s->devices.loop.count,
			c->sandbox ? "preallocated" : "sparse", s->devices.loop.count == 1 ? "" : "s", a,
			s->devices.loop.dir, loop_free(s, d, sizeof(d)), b);
		sb_size_format_human(c->fs_free, a, sizeof(a));
		fprintf(f, "  filesystem: about %s free (estimated)\n", a);
	} else {
		for (i = 0; i < s->devices.ndisks; i++)
			fprintf(f, "  disk: %s (everything on it is destroyed)\n", s->devices.disks[i]);
	}
	sb_size_format_human(c->ram, d, sizeof(d));
	for (i = 0; i < s->bench.nsuites; i++) {
		const struct sb_sizing *z = &c->sz[i];

		sb_size_format_human(z->size, a, sizeof(a));
		sb_size_format_human(z->wanted, b, sizeof(b));
		fprintf(f, "  %s: %s of files", s->bench.suites[i], a);
		if (!z->automatic)
			fprintf(f, " (bench.size)");
		else if (z->twice_ram && z->capped)
			fprintf(f, " (twice RAM would be %s, more than fits; RAM %s%s)", b, d,
				c->sandbox ? " in the throwaway kernel" : "");
		else if (z->twice_ram)
			fprintf(f, " (twice RAM: %s%s)", d, c->sandbox ? " in the throwaway kernel" : "");
		else if (z->capped)
			fprintf(f, " (the default %s does not fit)", b);
		else
			fprintf(f, " (the default)");
		fprintf(f, "\n");
	}
	sb_sizing_format_duration(c->min_s, a, sizeof(a));
	sb_sizing_format_duration(c->max_s, b, sizeof(b));
	if (!c->rounds) {
		fprintf(f, "  time: about %s to %s (%u repetition%s, build and teardown%s)\n", a, b, c->repeat,
			c->repeat == 1 ? "" : "s", c->sandbox ? ", the throwaway kernel's boot" : "");
		return;
	}
	fprintf(f, "  time: about %s to %s (repeat auto: %u to %u rounds, each a build, the suites and a "
		"teardown%s)\n", a, b, c->min_rounds, c->max_rounds,
		c->sandbox ? "; the throwaway kernel's boot" : "");
	sb_sizing_format_duration(c->max_time_s, d, sizeof(d));
	fprintf(f, "  time to a verdict: about %s at the earliest (%u rounds), about %s at the most (%u rounds%s%s)\n",
		a, c->min_rounds, b, c->max_rounds, c->max_time_s > 0 ? " or max_time " : "",
		c->max_time_s > 0 ? d : "");
}
