/* md's model for bench.per_layer (struct sb_layer_ops .pl_model): what an
 * array of n measured members should do, per RAID level (docs/layers.md
 * gives the sources: the kernel's md documentation and raid5.c's stripe
 * handling). RAID1: writes ~ the slowest member, a stream reads one
 * member; RAID10 with c copies: writes n/c x the slowest, streams n/c
 * (near, offset) or n (far) x a member; RAID5/6 with p parity members:
 * full-stripe writes (n-p) x the slowest, streams (n-p)..n x a member;
 * random reads spread over every member at every level. The arithmetic
 * is sb_pl_array's (array_model.c), which btrfs's profiles share. */
#include <stdio.h>
#include <string.h>

#include "layers/array_model.h"
#include "layers/md_int.h"
#include "util/units.h"

#define PL_WRITE_BS (1ULL << 20)    /* run/per_layer.c's sequential jobs */

static void raid1(const struct sb_pl_below *b, struct sb_pl_model *m)
{
	sb_pl_array(b, 1, 1, b->n, m);
	sb_pl_why(m, 0, "RAID1: every write goes to every member: the slowest member");
	sb_pl_why(m, 1, "RAID1: one stream reads one member");
}

static void raid10(const struct sb_stack_spec *spec, const struct sb_pl_below *b, struct sb_pl_model *m)
{
	double c = spec->raid.copies ? spec->raid.copies : 2, d = b->n / c;
	bool far = spec->raid.md_layout[0] == 'f';

	sb_pl_array(b, d, far ? b->n : d, b->n, m);
	sb_pl_why(m, 0, "RAID10: every write goes to each copy: members / copies x the slowest");
	sb_pl_why(m, 1, far ? "RAID10 far: a stream reads from every member"
		  : "RAID10 near/offset: members / copies x one member");
}

/* The job's 1 MiB writes against a full stripe: the note says when they
 * are partial stripes and what a partial stripe costs. */
static void stripe_note(const struct sb_stack_spec *spec, unsigned d, unsigned p, struct sb_pl_model *m)
{
	uint64_t stripe = spec->raid.chunk * d;
	char st[32], ch[32];

	sb_size_format(stripe, st, sizeof(st));
	sb_size_format(spec->raid.chunk, ch, sizeof(ch));
	if (stripe && PL_WRITE_BS % stripe == 0) {
		snprintf(m->note, sizeof(m->note), "RAID%u: the 1 MiB writes cover whole stripes (%u x %s = %s): "
			 "parity from the new data alone, no read-modify-write", spec->raid.level, d, ch, st);
		return;
	}
	snprintf(m->note, sizeof(m->note), "RAID%u: the 1 MiB writes are partial stripes (a stripe is %u x %s = %s): "
		 "sequential ones are gathered into whole stripes in md's stripe cache (raid.stripe_cache_size); "
		 "a stripe written in part costs a read-modify-write, reading the old data and %s before writing: "
		 "up to %u I/Os per small write, ~1/%u of the members' random write rate",
		 spec->raid.level, d, ch, st, p == 2 ? "both parities" : "parity", 2 + 2 * p, 2 + 2 * p);
}

static void raid56(const struct sb_stack_spec *spec, const struct sb_pl_below *b, struct sb_pl_model *m)
{
	unsigned p = spec->raid.level == 6 ? 2 : 1, d = b->n > p ? b->n - p : 1;

	sb_pl_array(b, d, d, b->n, m);
	sb_pl_why(m, 0, "RAID%u: full stripes write (members - %u) = %u x the slowest member, the rest is parity",
		  spec->raid.level, p, d);
	sb_pl_why(m, 1, "RAID%u: a stream reads (members - %u) = %u x a member (up to %u x when the parity "
		  "chunks it skips are read ahead too)", spec->raid.level, p, d, b->n);
	stripe_note(spec, d, p, m);
}

void sb_md_pl_model(const struct sb_stack_spec *spec, struct json_object *row,
		    const struct sb_pl_below *b, struct sb_pl_model *m)
{
	(void)row;
	if (spec->raid.level == 10)
		raid10(spec, b, m);
	else if (spec->raid.level == 5 || spec->raid.level == 6)
		raid56(spec, b, m);
	else
		raid1(b, m);
	sb_pl_why(m, 2, "RAID%u: random reads spread over every member", spec->raid.level);
}
