/* A RAID member failing mid-benchmark (faults.fail): write a verify file
 * before the suites, mark the member faulty from a timer thread `after`
 * into the benchmark, record the md state after every suite, and read the
 * verify file back at the end. Used by build-and-test (src/run/) and
 * meant for `bench STACK` as well; it knows nothing of stacks: the caller
 * gives it the md device, the member's device and the md layer's
 * description after each suite. */
#ifndef SB_BENCH_DEGRADE_H
#define SB_BENCH_DEGRADE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#include "util/err.h"

struct sb_degrade {
	char dir[512];            /* where the verify file lives (the stack's mountpoint) */
	char md_dev[256];         /* /dev/md127 */
	char member_dev[256];     /* the member as md sees it (/dev/loop1, /dev/mapper/...) */
	unsigned member;
	uint64_t after_ns;
	uint64_t verify_size;
	uint64_t verify_seed;
	uint64_t start_ns;        /* benchmark start (timer armed) */
	/* timer thread */
	pthread_t thread;
	bool running;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool cancel;
	bool fired;               /* "faulty" was written (or tried) */
	bool noted;               /* a suite's note already says so */
	int fire_rc;              /* 0 or -errno of the sysfs write */
	uint64_t fired_ns;        /* since start_ns */
	char fire_msg[256];
};

/* Write the verify file (bytes, seeded blocks) in dir, then arm the timer
 * that marks member_dev faulty in md_dev after_ns from now. member_dev NULL
 * or "": no timer (a stack with faults.flakey / faults.delay only: the md
 * state after every suite and the verify read are still recorded). */
int sb_degrade_begin(struct sb_degrade *d, const char *dir, const char *md_dev, const char *member_dev,
		     unsigned member, uint64_t after_ns, uint64_t verify_bytes, struct sb_err *err);
/* After a suite: suite_obj gets "stack_state_after": {"md": {degraded,
 * failed_members, array_state, ...}} from md_desc (the md layer's
 * describe output), and, in the suite during which the timer fired, the
 * note "md127 degraded during this suite: loop1 failed at 3.0 s" (or
 * "... dm-0 failed" when md failed a member on its own, e.g. dm-flakey). */
void sb_degrade_after_suite(struct sb_degrade *d, struct json_object *suite_obj, struct json_object *md_desc);
/* Stop the timer (if it has not fired), read the verify file back and check
 * every block; res gets "faults": {"fail": {...}, "verify": {...}}.
 * -EILSEQ when the verify read found corrupted blocks. */
int sb_degrade_end(struct sb_degrade *d, struct json_object *res, struct sb_err *err);

/* Mark a member faulty: "faulty" into /sys/block/MD/md/dev-MEMBER/state. */
int sb_md_set_faulty(const char *md_dev, const char *member_dev, struct sb_err *err);

#endif
