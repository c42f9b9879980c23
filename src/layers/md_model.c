/* md's model for bench.per_layer (struct sb_layer_ops .pl_model): what an
 * array of n measured members should do, per RAID level (docs/layers.md
 * gives the sources: the kernel's md documentation and raid5.c's stripe
 * handling). RAID1: writes ~ the slowest member, a stream reads one
 * member; RAID10 with c copies: writes n/c x the slowest, streams n/c
 * (near, offset) or n (far) x a member; RAID5/6 with p parity members:
 * full-stripe writes (n-p) x the slowest, streams (n-p) x a member;
 * random reads spread over every member at every level. Where the
 * members are non-rotational (the row's "nonrot_members", pl_observe) a
 * stream reads every member: RAID10 near/offset sends each chunk to the
 * least busy copy (raid10.c read_balance), RAID5/6 skip the parity
 * chunks at no cost; on rotational members the skipped chunks pass under
 * the head all the same. The arithmetic is sb_pl_array's
 * (array_model.c), which btrfs's profiles share. */
#include <stdio.h>
#include <string.h>

#include "layers/array_model.h"
#include "layers/md_int.h"
#include "sys/sysfs.h"
#include "util/units.h"

#define PL_WRITE_BS (1ULL << 20)    /* run/per_layer.c's sequential jobs */

static void raid1(const struct sb_pl_below *b, struct sb_pl_model *m)
{
	sb_pl_array(b, 1, 1, b->n, m);
	sb_pl_why(m, 0, "RAID1: every write goes to every member: the slowest member");
	sb_pl_why(m, 1, "RAID1: one stream reads one member");
}

/* The members below the array that say they are non-rotational, as
 * pl_observe recorded; -1: not recorded. */
static int nonrot_members(struct json_object *row)
{
	struct json_object *v;

	return row && json_object_object_get_ex(row, "nonrot_members", &v) && v ? json_object_get_int(v) : -1;
}

static void raid10(const struct sb_stack_spec *spec, struct json_object *row, const struct sb_pl_below *b,
		   struct sb_pl_model *m)
{
	double c = spec->raid.copies ? spec->raid.copies : 2, d = b->n / c;
	bool far = spec->raid.md_layout[0] == 'f';
	int nr = nonrot_members(row);

	/* raid10.c read_balance: any non-rotational copy -> the least busy */
	sb_pl_array(b, d, far || nr > 0 ? b->n : d, b->n, m);
	sb_pl_why(m, 0, "RAID10: every write goes to each copy: members / copies x the slowest");
	if (far)
		sb_pl_why(m, 1, "RAID10 far: a stream reads from every member");
	else if (nr > 0)
		sb_pl_why(m, 1, "RAID10 near/offset: on non-rotational members each chunk is read from the least busy "
			  "copy: every member");
	else
		sb_pl_why(m, 1, "RAID10 near/offset: members / copies x one member (%s)", nr == 0 ?
			  "rotational members: a head passes over the chunks its partner reads" :
			  "every member when they are non-rotational");
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

static void raid56(const struct sb_stack_spec *spec, struct json_object *row, const struct sb_pl_below *b,
		   struct sb_pl_model *m)
{
	unsigned p = spec->raid.level == 6 ? 2 : 1, d = b->n > p ? b->n - p : 1;
	bool flat = nonrot_members(row) == (int)b->n;

	sb_pl_array(b, d, flat ? b->n : d, b->n, m);
	sb_pl_why(m, 0, "RAID%u: full stripes write (members - %u) = %u x the slowest member, the rest is parity",
		  spec->raid.level, p, d);
	if (flat)
		sb_pl_why(m, 1, "RAID%u: on non-rotational members a stream reads every member = %u x a member "
			  "(skipping the parity chunks costs nothing)", spec->raid.level, b->n);
	else
		sb_pl_why(m, 1, "RAID%u: a stream reads (members - %u) = %u x a member (up to %u x on non-rotational "
			  "members, which skip the parity chunks at no cost)", spec->raid.level, p, d, b->n);
	stripe_note(spec, d, p, m);
}

void sb_md_pl_observe(const struct sb_layer *l, unsigned i, bool after, struct json_object *row)
{
	const struct sb_layer *b = l->below;
	unsigned j, n = 0, known = 0;
	uint64_t v;

	(void)i;
	if (after || !b)
		return;
	for (j = 0; j < b->ndev; j++)
		if (!sb_sysfs_dev_attr_u64(b->dev[j], "queue/rotational", &v, NULL)) {
			known++;
			n += v == 0;
		}
	if (known == b->ndev && known)
		json_object_object_add(row, "nonrot_members", json_object_new_int((int)n));
}

void sb_md_pl_model(const struct sb_stack_spec *spec, struct json_object *row,
		    const struct sb_pl_below *b, struct sb_pl_model *m)
{
	if (spec->raid.level == 10)
		raid10(spec, row, b, m);
	else if (spec->raid.level == 5 || spec->raid.level == 6)
		raid56(spec, row, b, m);
	else
		raid1(b, m);
	sb_pl_why(m, 2, "RAID%u: random reads spread over every member", spec->raid.level);
}
