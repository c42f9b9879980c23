/* Default benchmark sizes and run-time estimates; see sizing.h. The rates
 * of the estimate are deliberately wide: they bracket what the quick start
 * measured in the throwaway kernel of a loaded 2-core machine (bonnie moved
 * its 2 GiB file four times in about 3 minutes, ~50 MB/s) and what a real
 * NAS does with its disks. */
#include "bench/sizing.h"

#include <stdio.h>
#include <string.h>

#define MiB (1ULL << 20)
#define GiB (1ULL << 30)

/* slow end / fast end */
#define SEQ_SLOW_BPS 25e6
#define SEQ_FAST_BPS 150e6
#define IOPS_SLOW 300.0
#define IOPS_FAST 5000.0
/* one create, stat or delete of bonnie's file tests, fsync'd (-b) or not */
#define FILEOP_SYNC_SLOW_S 0.004
#define FILEOP_SYNC_FAST_S 0.0003
#define FILEOP_SLOW_S 0.0005
#define FILEOP_FAST_S 0.00003
#define BONNIE_SEEKS 8192.0

static uint64_t suite_default(const char *suite, uint64_t ram, bool *twice_ram)
{
	*twice_ram = false;
	if (!strcmp(suite, "bonnie")) {
		*twice_ram = true;
		return 2 * ram;
	}
	if (!strcmp(suite, "fio-matrix") || !strcmp(suite, "dd"))
		return GiB;
	if (!strcmp(suite, "smallfile") || !strcmp(suite, "copy"))
		return 256 * MiB;
	return 64 * MiB;   /* quick */
}

void sb_sizing_choose(const char *suite, uint64_t bench_size, uint64_t ram, uint64_t room,
		      struct sb_sizing *out)
{
	memset(out, 0, sizeof(*out));
	if (bench_size) {
		out->size = out->wanted = bench_size;
		return;
	}
	out->automatic = true;
	out->wanted = out->size = suite_default(suite, ram, &out->twice_ram);
	if (room && out->wanted > room) {
		out->size = room;
		out->capped = true;
	}
}

uint64_t sb_sizing_room(uint64_t free_bytes)
{
	uint64_t r;

	if (free_bytes <= 16 * MiB)
		return 0;
	/* sb_suite_check_room wants bytes + bytes/50 <= free */
	r = (free_bytes - 16 * MiB) / 51 * 50;
	return r - r % MiB;
}

/* Seconds at one end of the range: bps bytes/s sequential, iops random
 * operations/s, fileop seconds per (fsync'd) file operation. */
static double estimate_at(const char *suite, double size, const struct sb_bench_spec *b,
			  double bps, double iops, double fileop)
{
	double rt = (double)b->runtime_ns / 1e9, ramp = (double)b->ramp_ns / 1e9;

	if (!strcmp(suite, "bonnie"))
		/* block output, rewrite (read + write), block input; 8192 seeks
		 * (10% also write); files*1024 files created, stat()ed and
		 * deleted, in name order then in random order */
		return 4 * size / bps + BONNIE_SEEKS * 1.1 / iops + (double)b->files * 1024 * 6 * fileop;
	if (!strcmp(suite, "fio-matrix"))
		/* 6 settings, each writes then reads the total (or runs for runtime) */
		return rt > 0 ? 12 * (rt + ramp) : 12 * size / bps;
	if (!strcmp(suite, "dd"))
		/* three passes, each writes then reads the size; four more
		 * where the three writes took under 2 s (dd.c) */
		return (3 * size / bps < 2 ? 14 : 6) * size / bps;
	if (!strcmp(suite, "copy"))
		/* writing the sources, then 3 tools x (in + out) x (copy + check) */
		return 13 * size / bps;
	if (!strcmp(suite, "smallfile"))
		/* 4 phases of 4 KiB operations over the whole size */
		return rt > 0 ? 4 * (rt + ramp) : 4 * size / 4096 / iops;
	/* quick: sequential write and read, then two timed random phases */
	return 2 * size / bps + 2 * ((rt > 0 ? rt : 2.0) + ramp);
}

void sb_sizing_estimate(const char *suite, const struct sb_sizing *sz, const struct sb_bench_spec *b,
			double *min_s, double *max_s)
{
	*min_s = estimate_at(suite, (double)sz->size, b, SEQ_FAST_BPS, IOPS_FAST,
			     b->fsync ? FILEOP_SYNC_FAST_S : FILEOP_FAST_S);
	*max_s = estimate_at(suite, (double)sz->size, b, SEQ_SLOW_BPS, IOPS_SLOW,
			     b->fsync ? FILEOP_SYNC_SLOW_S : FILEOP_SLOW_S);
}

void sb_sizing_format_duration(double s, char *buf, size_t len)
{
	unsigned long m;

	if (s < 90) {
		snprintf(buf, len, "%.0f s", s < 1 ? 1 : s);
		return;
	}
	m = (unsigned long)(s / 60 + 0.5);
	if (m < 90)
		snprintf(buf, len, "%lu min", m);
	else
		snprintf(buf, len, "%lu h %lu min", m / 60, m % 60);
}
