/* integrity layer: a dm-integrity device over every member, between the
 * devices (loop/disks, and a fault device if any) and md, so each member
 * checks a tag (crc32c, sha256, hmac-sha256...) on every sector it reads
 * and md sees a read error, not bad data, when a member returns rot.
 * Through libcryptsetup (crypt_format CRYPT_INTEGRITY, the format
 * integritysetup writes), never the CLI. An hmac key is random bytes in
 * locked memory (sys/secret.h), handed to libcryptsetup and wiped: it is
 * never in argv, a file, a log or the results (the stack is throwaway, so
 * the mapping need not be opened again with it).
 *
 * Formatting writes only the superblock; the tags of the data area are
 * undefined until written, and a read of such a sector fails with an
 * integrity error. md's resync reads every sector of a member and mkfs and
 * md's own metadata reads read some they never wrote, so build zeroes the
 * whole mapping once (what `integritysetup format` does unless --no-wipe).
 * That is a full write of every member: the price, on 64 MiB to a few GiB
 * of loop device, of a stack whose reads all verify.
 *
 * State objects: "dm" sb-NAME-integrity-I, extra "member=I dev=/dev/loopN". */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libcryptsetup.h>

#include "core/layer.h"
#include "core/stack.h"
#include "core/state.h"
#include "layers/cryptsetup_int.h"
#include "layers/holders.h"
#include "spec/part.h"
#include "sys/secret.h"
#include "sys/udev.h"
#include "util/log.h"

struct integrity_spec {
	bool enabled;
	char algorithm[16];      /* the allowed words below */
	char journal[8];         /* journal | bitmap | none */
	uint32_t tag_size;       /* bytes per sector; 0: the algorithm's digest */
	uint32_t sector_size;
};
_Static_assert(sizeof(struct integrity_spec) <= SB_LAYER_DATA_MAX, "integrity options do not fit their slot");

/* The words the stack file takes, the kernel's crypto API names, digest
 * bytes, and the key bytes (0: not keyed). */
static const struct {
	const char *word, *kernel;
	unsigned digest, key;
} algos[] = {
	{ "crc32c", "crc32c", 4, 0 },
	{ "crc32", "crc32", 4, 0 },
	{ "sha1", "sha1", 20, 0 },
	{ "sha256", "sha256", 32, 0 },
	{ "hmac-sha256", "hmac(sha256)", 32, 32 },
	{ "hmac-sha512", "hmac(sha512)", 64, 64 },
};
static const char *const algo_words[] = { "crc32c", "crc32", "sha1", "sha256", "hmac-sha256", "hmac-sha512", NULL };
static const char *const journal_words[] = { "journal", "bitmap", "none", NULL };
static const char *const sector_words[] = { "512", "1024", "2048", "4096", NULL };

static unsigned algo_at(const char *word)
{
	unsigned i;

	for (i = 0; i < sizeof(algos) / sizeof(algos[0]); i++)
		if (!strcmp(algos[i].word, word))
			return i;
	return 0;   /* not reached: the enum row allows only these words */
}

static const struct sb_spec_part integrity_part;

static const struct integrity_spec *integ_of(const struct sb_stack_spec *s)
{
	return sb_spec_layer_cdata(s, &integrity_part);
}

static unsigned tag_of(const struct integrity_spec *g)
{
	return g->tag_size ? g->tag_size : algos[algo_at(g->algorithm)].digest;
}

static void integ_name(const struct sb_stack_spec *spec, unsigned member, char *out, size_t len)
{
	snprintf(out, len, "sb-%s-integrity-%u", spec->name, member);
}

#define CS_NONE "no detail from libcryptsetup (is the dm-integrity module there?)"

static const char *cs_detail(void)
{
	return sb_cs_detail(CS_NONE);
}

static uint32_t activate_flags(const struct integrity_spec *g)
{
	if (!strcmp(g->journal, "bitmap"))
		return CRYPT_ACTIVATE_NO_JOURNAL_BITMAP;
	if (!strcmp(g->journal, "none"))
		return CRYPT_ACTIVATE_NO_JOURNAL;
	return 0;
}

static const char *journal_what(const char *j)
{
	if (!strcmp(j, "bitmap"))
		return "bitmap mode: no journal, dirty regions recalculated after a crash";
	if (!strcmp(j, "none"))
		return "no journal: a crash can leave data and tag disagreeing";
	return "journal: every write goes to the journal first, then in place";
}

static unsigned members_of(const struct sb_stack_spec *s)
{
	return s->devices.kind == SB_DEVICES_LOOP ? s->devices.loop.count : s->devices.ndisks;
}

static void integ_plan(const struct sb_layer *l, struct sb_plan *p)
{
	const struct integrity_spec *g = integ_of(l->spec);
	char name[SB_NAME_MAX + 32], below[SB_PATH_MAX];
	unsigned i, a = algo_at(g->algorithm);

	for (i = 0; i < members_of(l->spec); i++) {
		integ_name(l->spec, i, name, sizeof(name));
		if (l->below && i < l->below->ndev)
			snprintf(below, sizeof(below), "%s", l->below->dev[i]);
		else
			snprintf(below, sizeof(below), "DEV%u", i);
		sb_plan_build(p, "integrity: format dm-integrity on %s (libcryptsetup CRYPT_INTEGRITY: %s, tag %u B, "
			      "sector %u B, %s), open /dev/mapper/%s%s, then zero all of it through the mapping "
			      "(tags of never-written sectors fail to read; md's resync reads every sector)",
			      below, algos[a].kernel, tag_of(g), g->sector_size, journal_what(g->journal), name,
			      algos[a].key ? " with a random key in locked memory, never stored" : "");
		sb_plan_teardown(p, "integrity: udev settle, close %s (retry while busy, at most %d s)",
				 name, SB_BUSY_BUDGET_MS / 1000);
	}
}

/* Format dev, open it as name, zero it through the mapping. */
static int integ_make(const struct integrity_spec *g, const char *dev, const char *name,
		      unsigned long long *probe, struct sb_err *err)
{
	unsigned a = algo_at(g->algorithm);
	struct crypt_params_integrity ip = {
		.tag_size = tag_of(g),
		.sector_size = g->sector_size,
		.integrity = algos[a].kernel,
		.integrity_key_size = algos[a].key,
	};
	struct crypt_device *cd = NULL;
	char node[SB_PATH_MAX];
	char *key = NULL;
	int r;

	r = sb_cs_init(&cd, dev, "integrity", err);
	if (r)
		return r;
	if (algos[a].key) {
		key = sb_secret_alloc(algos[a].key);
		if (!key) {
			r = sb_err_sys(err, -errno, "integrity: no locked memory for the hmac key");
			goto out;
		}
		r = sb_secret_random(key, algos[a].key, err);
		if (r)
			goto out;
	}
	r = crypt_format(cd, CRYPT_INTEGRITY, NULL, NULL, NULL, NULL, 0, &ip);
	if (r < 0) {
		r = sb_err_sys(err, r, "integrity: formatting %s (%s) failed (%s)", dev, algos[a].kernel, cs_detail());
		goto out;
	}
	r = crypt_activate_by_volume_key(cd, name, key, algos[a].key, activate_flags(g));
	sb_secret_free(key);
	key = NULL;
	if (r < 0) {
		r = sb_err_sys(err, r, "integrity: opening %s as %s failed (%s)", dev, name, cs_detail());
		goto out;
	}
	snprintf(node, sizeof(node), "/dev/mapper/%s", name);
	r = sb_udev_wait_node(node, SB_UDEV_TIMEOUT_MS, err);
	if (r)
		goto out;
	r = crypt_wipe(cd, node, CRYPT_WIPE_ZERO, 0, 0, 1 << 20, 0, NULL, NULL);
	if (r < 0)
		r = sb_err_sys(err, r, "integrity: zeroing %s failed (%s)", node, cs_detail());
	*probe = crypt_get_active_integrity_failures(cd, name);
out:
	sb_secret_free(key);
	crypt_free(cd);
	return r < 0 ? r : 0;
}

static int integ_build(struct sb_layer *l, struct sb_err *err)
{
	const struct integrity_spec *g = integ_of(l->spec);
	char name[SB_NAME_MAX + 32], extra[SB_PATH_MAX];
	unsigned long long probe = 0;
	unsigned i;
	int rc;

	if (!l->below || !l->below->ndev)
		return sb_err_set(err, -EINVAL, "integrity: no devices below");
	for (i = 0; i < l->below->ndev; i++) {
		integ_name(l->spec, i, name, sizeof(name));
		snprintf(extra, sizeof(extra), "member=%u dev=%s", i, l->below->dev[i]);
		rc = sb_state_add(&l->stack->state, "integrity", "dm", name, extra, err);
		if (rc)
			return rc;
		rc = integ_make(g, l->below->dev[i], name, &probe, err);
		if (rc)
			return rc;
		/* udev's probes read the fresh mapping before the wipe: those
		 * failures are not the benchmark's; describe subtracts them */
		snprintf(extra, sizeof(extra), "member=%u dev=%s probe_mismatches=%llu", i, l->below->dev[i],
			 probe);
		rc = sb_state_set_extra(&l->stack->state, "integrity", "dm", name, extra, err);
		if (rc)
			return rc;
		snprintf(l->dev[i], sizeof(l->dev[i]), "/dev/mapper/%s", name);
		sb_info("integrity: %s over member %u (%s): %s, %s", l->dev[i], i, l->below->dev[i],
			g->algorithm, g->journal);
	}
	l->ndev = l->below->ndev;
	return 0;
}

static int integ_teardown(const struct sb_state_obj *obj, struct sb_err *err)
{
	int r;

	if (strcmp(obj->kind, "dm"))
		return sb_err_set(err, -EINVAL, "integrity: unknown object kind '%s'", obj->kind);
	if (strncmp(obj->id, "sb-", 3) || !strstr(obj->id, "-integrity-"))
		return sb_err_set(err, -EINVAL, "integrity: refusing to remove %s: not a stackbench integrity device",
				  obj->id);
	(void)sb_udev_settle(SB_UDEV_TIMEOUT_MS, NULL);
	r = sb_cs_close("integrity", obj->id, 0, CS_NONE, err);
	if (r)
		return r;
	(void)sb_udev_settle(SB_UDEV_TIMEOUT_MS, NULL);
	return 0;
}

static bool integ_exists(const struct sb_state_obj *obj)
{
	crypt_status_info st = crypt_status(NULL, obj->id);

	return st != CRYPT_INACTIVE;   /* CRYPT_INVALID: cannot ask, say it may be there */
}

/* What the kernel has in effect, from the mapping (libcryptsetup reads the
 * dm table and the superblock), and the mismatch counter from dm status. */
static void describe_one(const char *name, unsigned long long probe, struct json_object *o)
{
	struct crypt_params_integrity ip;
	struct crypt_active_device cad;
	struct crypt_device *cd = NULL;

	if (crypt_init_by_name(&cd, name) < 0) {
		json_object_object_add(o, "error", json_object_new_string("not active"));
		return;
	}
	if (crypt_get_integrity_info(cd, &ip) == 0) {
		json_object_object_add(o, "algorithm", json_object_new_string(ip.integrity ? ip.integrity : ""));
		json_object_object_add(o, "tag_size", json_object_new_int((int)ip.tag_size));
		json_object_object_add(o, "sector_size", json_object_new_int((int)ip.sector_size));
		json_object_object_add(o, "journal_bytes", json_object_new_int64((int64_t)ip.journal_size));
		json_object_object_add(o, "interleave_sectors", json_object_new_int((int)ip.interleave_sectors));
	}
	if (crypt_get_active_device(cd, name, &cad) == 0) {
		json_object_object_add(o, "mode", json_object_new_string(
			cad.flags & CRYPT_ACTIVATE_NO_JOURNAL_BITMAP ? "bitmap" :
			cad.flags & CRYPT_ACTIVATE_NO_JOURNAL ? "none" : "journal"));
		json_object_object_add(o, "sectors", json_object_new_int64((int64_t)cad.size));
	}
	json_object_object_add(o, "underlying", json_object_new_string(
		crypt_get_device_name(cd) ? crypt_get_device_name(cd) : ""));
	json_object_object_add(o, "mismatches", json_object_new_int64(
		(int64_t)(crypt_get_active_integrity_failures(cd, name) - probe)));
	json_object_object_add(o, "mismatches_before_wipe", json_object_new_int64((int64_t)probe));
	crypt_free(cd);
}

/* The failures udev's probes caused before the wipe, as build recorded. */
static unsigned long long probe_of(const struct sb_layer *l, const char *name)
{
	const struct sb_state *st = &l->stack->state;
	unsigned long long v = 0;
	const char *m;
	unsigned i;

	for (i = 0; i < st->nobj; i++)
		if (!strcmp(st->obj[i].layer, "integrity") && !strcmp(st->obj[i].id, name) &&
		    (m = strstr(st->obj[i].extra, "probe_mismatches=")))
			v = strtoull(m + strlen("probe_mismatches="), NULL, 10);
	return v;
}

static int integ_describe(const struct sb_layer *l, struct json_object *out, struct sb_err *err)
{
	struct json_object *arr = json_object_new_array();
	char name[SB_NAME_MAX + 32];
	unsigned i;

	for (i = 0; i < l->ndev; i++) {
		struct json_object *o = json_object_new_object();

		integ_name(l->spec, i, name, sizeof(name));
		json_object_object_add(o, "member", json_object_new_int((int)i));
		json_object_object_add(o, "device", json_object_new_string(l->dev[i]));
		json_object_object_add(o, "dm_name", json_object_new_string(name));
		describe_one(name, probe_of(l, name), o);
		json_object_array_add(arr, o);
	}
	json_object_object_add(out, "members", arr);
	json_object_object_add(out, "wiped", json_object_new_boolean(true));
	(void)err;
	return 0;
}

/* `bench STACK` on a stack an earlier command built: the recorded
 * mappings in their members' places. */
static int integ_attach(struct sb_layer *l, const struct sb_state *st, struct sb_err *err)
{
	unsigned i, member;

	if (!l->below)
		return sb_err_set(err, -EINVAL, "integrity: no devices below");
	for (i = 0; i < l->below->ndev; i++)
		snprintf(l->dev[i], sizeof(l->dev[i]), "%s", l->below->dev[i]);
	l->ndev = l->below->ndev;
	for (i = 0; i < st->nobj; i++) {
		const char *m = strstr(st->obj[i].extra, "member=");

		if (strcmp(st->obj[i].layer, "integrity") || !m || sscanf(m, "member=%u", &member) != 1 ||
		    member >= l->ndev)
			continue;
		snprintf(l->dev[member], sizeof(l->dev[member]), "/dev/mapper/%s", st->obj[i].id);
	}
	return 0;
}

/* sb-STACK-integrity-N */
static bool integ_dm_tail(const char *tail)
{
	return tail[0] >= '0' && tail[0] <= '9';
}

static void integ_leftovers(const struct sb_stack *s, struct sb_leftovers *found)
{
	char prefix[SB_NAME_MAX + 32];

	snprintf(prefix, sizeof(prefix), "sb-%s-integrity-", s->spec->name);
	sb_layer_dm_leftovers(found, prefix, integ_dm_tail);
}

static void integ_dm_name(const struct sb_state_obj *o, char *out, size_t len)
{
	snprintf(out, len, "%s", !strcmp(o->kind, "dm") ? o->id : "");
}

/* ---- its part of the stack description ---- */
#define FLD SB_OPT_FLD

static const struct sb_opt integrity_opts[] = {
	{ "algorithm", SB_OPT_ENUM, FLD(integrity_spec, algorithm), "crc32c", 0, 0, algo_words, NULL,
	  "tag of every sector: crc32c/crc32 (detects rot), sha1/sha256, hmac-sha256/512 (also tampering; random key)" },
	{ "journal", SB_OPT_ENUM, FLD(integrity_spec, journal), "journal", 0, 0, journal_words, NULL,
	  "journal: data+tag written twice, crash-safe; bitmap: no journal, dirty regions re-tagged; none" },
	{ "tag_size", SB_OPT_U32, FLD(integrity_spec, tag_size), "0", 0, 64, NULL, NULL,
	  "tag bytes per sector, at most the algorithm's digest (0: the digest: 4 for crc32c, 32 for sha256)" },
	{ "sector_size", SB_OPT_U32, FLD(integrity_spec, sector_size), "512", 0, 0, sector_words, NULL,
	  "dm-integrity sector (one tag each); not below the device's sector nor above fs.block_size" },
	{ .key = NULL },
};

static const struct sb_opt_section integrity_sec = {
	"integrity", 0, offsetof(struct integrity_spec, enabled), integrity_opts };

static const struct sb_opt integrity_top[] = {
	{ "integrity", SB_OPT_SECTION, 0, 0, NULL, 0, 0, NULL, &integrity_sec,
	  "dm-integrity over every member, below the RAID (absent: none)" },
	{ .key = NULL },
};

static int integ_check(const struct sb_spec_ctx *c, struct sb_stack_spec *s)
{
	const struct integrity_spec *g = integ_of(s);
	unsigned digest;

	if (!g->enabled)
		return 0;
	digest = algos[algo_at(g->algorithm)].digest;
	if (g->tag_size > digest)
		return sb_spec_fail_at(c, "integrity.tag_size", false,
				       "integrity.tag_size: %u is more than %s's %u-byte digest (0..%u; 0: %u)",
				       g->tag_size, g->algorithm, digest, digest, digest);
	if (s->devices.kind == SB_DEVICES_LOOP && g->sector_size < s->devices.loop.sector_size)
		return sb_spec_fail_at(c, "integrity.sector_size", false,
				       "integrity.sector_size: %u is below the devices' %u-byte sector",
				       g->sector_size, s->devices.loop.sector_size);
	if (g->sector_size > s->fs.block_size)
		return sb_spec_fail_at(c, "integrity.sector_size", false,
				       "integrity.sector_size: %u is above fs.block_size %u (the filesystem would "
				       "write part of a tagged sector)", g->sector_size, s->fs.block_size);
	return 0;
}

static void integ_summary(const struct sb_stack_spec *s, char *buf, size_t len)
{
	const struct integrity_spec *g = integ_of(s);

	if (g->enabled)
		sb_spec_append(buf, len, " + dm-integrity %s (%s)", g->algorithm, g->journal);
}

static const struct sb_spec_part integrity_part = {
	.parent = "",
	.opts = integrity_top,
	.base = SB_SPEC_OWN,
	.data_size = sizeof(struct integrity_spec),
	.check = integ_check,
	.summary = integ_summary,
	.block_device = true,
};

/* bench.per_layer: one integrity device on each member. With the journal
 * every write goes to the journal first and then in place: ~ 1/2 the
 * member's writes; bitmap and none write once, beside the tags: ~ the
 * member's. Reads ~ the member's (the tags are read with the data). The
 * kernel's dm-integrity.rst. */
static void integ_pl_model(const struct sb_stack_spec *spec, struct json_object *row,
			   const struct sb_pl_below *b, struct sb_pl_model *m)
{
	const struct integrity_spec *g = integ_of(spec);
	bool journal = !strcmp(g->journal, "journal");

	(void)row;
	if (m->exp.v[0] >= 0 && journal)
		m->exp.v[0] /= 2;
	if (journal)
		sb_pl_why(m, 0, "integrity with a journal: every write is written twice (journal, then in place): "
			  "1/2 the member below");
	else
		sb_pl_why(m, 0, "integrity without a journal (%s): written once with its tags: the member below",
			  g->journal);
	sb_pl_why(m, 1, "integrity: reads the data with its tags: the member below");
	sb_pl_why(m, 2, "integrity: reads the data with its tags: the member below");
	(void)b;
}

static bool integ_wanted(const struct sb_stack_spec *spec)
{
	return integ_of(spec)->enabled;
}

const struct sb_layer_ops sb_layer_integrity = {
	.name = "integrity",
	.label = sb_layer_label_name,
	.spec = &integrity_part,
	/* above a fault device (a flaky disk's errors are what it detects),
	 * below md */
	.order = SB_ORDER_MEMBER + 5,
	.wanted = integ_wanted,
	.kernel_needs = (const char *const[]){ "dm", NULL },
	.leftovers = integ_leftovers,
	.dm_name = integ_dm_name,
	.plan = integ_plan,
	.build = integ_build,
	.describe = integ_describe,
	.teardown = integ_teardown,
	.exists = integ_exists,
	.attach = integ_attach,
	.per_layer = true,
	.pl_model = integ_pl_model,
};
