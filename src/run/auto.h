/* --repeat auto: interleaved rounds go on until every headline figure (the
 * table's numeric columns) is known to --precision, or has a verdict
 * against the baseline, between --min-repeat and --max-repeat rounds or
 * within --max-time; the results record why the rounds stopped. */
#ifndef SB_RUN_AUTO_H
#define SB_RUN_AUTO_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "report/table.h"
#include "spec/spec.h"
#include "util/err.h"

#define SB_AUTO_PRECISION_PCT 5.0
#define SB_AUTO_MIN_REPEAT 3
#define SB_AUTO_MAX_REPEAT 10

struct sb_run_auto {
	bool on;
	double precision_pct;      /* a figure's 95 % CI half-width, in % */
	unsigned min_repeat, max_repeat;
	double max_time_s;         /* 0: none */
};

/* The run's rule from the command's flags and the stacks' keys. cli: on
 * for --repeat auto, and the settings given (0: not given); cli_repeat: a
 * --repeat N (which wins over the stacks' bench.repeat: auto). The rule is
 * on with --repeat auto or when any stack says bench.repeat: auto; each
 * setting is the flag's, else the stacks' bench.precision, min_repeat,
 * max_repeat and max_time, which must then agree (a run's rounds are one
 * for all its stacks). Refused: settings without auto, min > max. */
int sb_run_auto_resolve(const struct sb_run_auto *cli, unsigned cli_repeat,
			const struct sb_stack_spec *const *specs, unsigned n, struct sb_run_auto *out,
			struct sb_err *err);
/* After round `round` (elapsed_s since the first, the last one took
 * round_s): why the rounds stop ("precision", "verdicts", "max_repeat",
 * "max_time"), with a sentence in why; NULL to go on. res: the n results
 * held so far; opts: the table's columns and baseline. */
const char *sb_run_auto_check(const struct sb_run_auto *a, const struct sb_table_opts *opts,
			      struct json_object *const *res, unsigned n, unsigned round,
			      double elapsed_s, double round_s, char *why, size_t len);
/* run_order of a results object: repeat "auto", its settings, the rounds
 * run and why they stopped. */
void sb_run_auto_record(const struct sb_run_auto *a, struct json_object *res, unsigned rounds,
			const char *stopped, const char *why, double seconds);

#endif
