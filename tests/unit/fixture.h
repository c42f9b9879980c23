/* What the unit tests of the spec and the layers share: a stack loaded from
 * a YAML buffer (named t.yml in the messages) and checks on its errors. */
#ifndef SB_TEST_FIXTURE_H
#define SB_TEST_FIXTURE_H

#include <stdbool.h>

#include "spec/spec.h"
#include "util/err.h"

/* Load yaml; fails the test unless sb_spec_load_buffer returns want_rc. */
struct sb_spec_list sb_t_load(const char *yaml, int want_rc, struct sb_err *err);
/* yaml is refused (-EINVAL) with exactly this message. */
void sb_t_load_bad(const char *yaml, const char *want);
/* yaml is refused (-EINVAL) with a message containing needle. */
void sb_t_expect_error(const char *yaml, const char *needle);

struct sb_plan;
/* The plan of yaml's stack; top: the name of the layer under mount, and
 * nlayers (may be NULL) how many layers the stack has. */
void sb_t_plan_of(const char *yaml, struct sb_plan *plan, unsigned *nlayers, char *top, size_t len);
/* The first build step starting with prefix (fails the test if none). */
const char *sb_t_find_step(const struct sb_plan *p, const char *prefix);
/* Whether one of the n steps contains what. */
bool sb_t_has_step(char (*steps)[512], unsigned n, const char *what);
/* The plan of yaml's stack into plan, after checking that its layers are
 * names (nnames of them, bottom up) and that the kernel must have dm. */
void sb_t_dm_plan(const char *yaml, const char *const *names, unsigned nnames, struct sb_plan *plan);

struct json_object;
/* A new reference to the object "name" in s's JSON (fails the test if missing). */
struct json_object *sb_t_section(const struct sb_stack_spec *s, const char *name);
/* o's key k as a string; "(none)" when absent or null. */
const char *sb_t_str_of(struct json_object *o, const char *k);
/* A stack without section name: the section says "enabled": false and the
 * summary lacks word. */
void sb_t_section_off(const char *name, const char *word);
/* yaml loads; its section name has these key/value strings (kv: key, value,
 * ..., NULL) and the summary contains summary. */
void sb_t_section_has(const char *yaml, const char *name, const char *const *kv, const char *summary);

struct sb_job_opts;
/* `stackbench job` with the arguments after err (NULL-terminated, at most
 * 30) parsed into o, err cleared first: sb_job_parse_args' result. */
int sb_t_job_parse(struct sb_job_opts *o, struct sb_err *err, ...);

#endif
