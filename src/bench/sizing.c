/* Default benchmark sizes and run-time estimates; see sizing.h. The rates
 * of the estimate are deliberately wide: they bracket what the quick start
 * measured in the throwaway kernel of a loaded 2-core machine (bonnie moved
 * its 2 GiB file four times in about 3 minutes, ~50 MB/s) and what a real
 * NAS does with its disks. */
#include "bench/sizing.h"
#include "bench/suite.h"

#include <stdio.h>
#include <string.h>

#define MiB (1ULL << 20)

/* one create, stat or delete of bonnie's file tests, fsync'd (-b) or not */
#define FILEOP_SYNC_SLOW_S 0.004
#define FILEOP_SYNC_FAST_S 0.0003
#define FILEOP_SLOW_S 0.0005
#define FILEOP_FAST_S 0.00003

void sb_sizing_choose(const char *suite, uint64_t bench_size, uint64_t ram, uint64_t room,
		      struct sb_sizing *out)
{
	const struct sb_suite_ops *ops = sb_suite_find(suite);

	memset(out, 0, sizeof(*out));
	if (bench_size) {
		out->size = out->wanted = bench_size;
		return;
	}
	if (!ops)
		return;
	out->automatic = true;
	out->twice_ram = ops->default_size == SB_SUITE_TWICE_RAM;
	out->wanted = out->size = out->twice_ram ? 2 * ram : ops->default_size;
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

void sb_sizing_estimate(const char *suite, const struct sb_sizing *sz, const struct sb_bench_spec *b,
			double *min_s, double *max_s)
{
	const struct sb_suite_ops *ops = sb_suite_find(suite);
	const struct sb_sizing_rates fast = { SB_SIZING_SEQ_FAST_BPS, SB_SIZING_IOPS_FAST,
					      b->fsync ? FILEOP_SYNC_FAST_S : FILEOP_FAST_S };
	const struct sb_sizing_rates slow = { SB_SIZING_SEQ_SLOW_BPS, SB_SIZING_IOPS_SLOW,
					      b->fsync ? FILEOP_SYNC_SLOW_S : FILEOP_SLOW_S };

	*min_s = ops ? ops->estimate((double)sz->size, b, &fast) : 0;
	*max_s = ops ? ops->estimate((double)sz->size, b, &slow) : 0;
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
