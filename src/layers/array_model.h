/* The arithmetic of an array's per-layer model, shared by md (every RAID
 * level, md_model.c) and btrfs's raid1/raid10 profiles (btrfs_model.c):
 * from the members measured below (b), with
 *   d: members' worth of data a write stripes over: every copy of every
 *      block is written, so the slowest member bounds each of the d:
 *      writes = d x the slowest member;
 *   r: members a stream reads from at once: reads = r x a member (mean);
 *   q: members random reads spread over: IOPS = q x a member (mean).
 * md RAID1: d 1, r 1, q n; RAID10: n/copies, n/copies (far, or any
 * member non-rotational: n), n; RAID5/6: n - parity, n - parity (every
 * member non-rotational: n), n; btrfs raid1: 1, 1, 1 and raid10:
 * n/2, n/2, n/2 (one process reads one copy: its pid picks the mirror).
 * docs/layers.md gives the sources. A figure unknown below leaves its
 * expectation unknown; the sentences are the caller's. */
#ifndef SB_LAYERS_ARRAY_MODEL_H
#define SB_LAYERS_ARRAY_MODEL_H

#include "report/per_layer.h"

void sb_pl_array(const struct sb_pl_below *b, double d, double r, double q, struct sb_pl_model *m);

#endif
