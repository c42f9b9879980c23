/* bench.per_layer: the cost of every layer, from one build. Each block
 * layer's devices (every member, the md array, the LV, the dm-crypt
 * mapping) get the same raw jobs right after that layer is built and
 * before the next one exists, because the raw writes destroy whatever
 * would sit on top: build -> measure -> build the next. The order is
 * recorded. Expected figures and the limit line are added afterwards
 * (sb_per_layer_expect, src/report/per_layer.c). */
#include "run/per_layer.h"

#include <stdio.h>
#include <string.h>

#include "bench/engine.h"
#include "report/per_layer.h"
#include "sys/crypto.h"
#include "sys/sysfs.h"
#include "util/log.h"
#include "report/results.h"

#define PL_SIZE (64ULL << 20)       /* per job: small, so a build-and-test stays short */
#define PL_RAND_NS (2ULL * 1000000000ULL)

static bool block_layer(const char *name)
{
	return !strcmp(name, "loop") || !strcmp(name, "disks") || !strcmp(name, "fault") ||
		!strcmp(name, "md") || !strcmp(name, "lvm") || !strcmp(name, "luks");
}

static int pl_job(const char *dev, enum sb_rw rw, uint64_t bs, unsigned qd, uint64_t size,
		  uint64_t runtime_ns, double *out, bool iops, struct sb_err *err)
{
	struct sb_job_opts o;
	struct sb_job_result r;
	const struct sb_dir_result *d;
	int rc;

	sb_job_opts_init(&o);
	snprintf(o.name, sizeof(o.name), "sb-layer-%s", sb_rw_name(rw));
	snprintf(o.phase, sizeof(o.phase), "per-layer %s %s", dev, sb_rw_name(rw));
	snprintf(o.target, sizeof(o.target), "%s", dev);
	o.rw = rw;
	o.bs = bs;
	o.iodepth = qd;
	o.size = size;
	o.runtime_ns = runtime_ns;
	o.direct = true;
	memset(&r, 0, sizeof(r));
	rc = sb_engine_run(&o, &r, err);
	if (rc < 0)
		return rc;
	d = &r.dir[rw == SB_RW_WRITE ? SB_DIR_WRITE : SB_DIR_READ];
	if (!d->runtime_ns)
		return 0;
	*out = iops ? d->ios * 1e9 / d->runtime_ns : d->io_bytes * 1e3 / d->runtime_ns;
	*out = (double)(int64_t)(*out * 10 + 0.5) / 10;
	return 0;
}

static struct json_object *num_or_null(double v)
{
	return v >= 0 ? json_object_new_double(v) : NULL;
}

/* The three raw jobs on one device; a job that fails leaves its figure
 * null and a note, it does not fail the build. */
static struct json_object *measure_dev(const char *dev, struct sb_err *err)
{
	struct json_object *f = json_object_new_object();
	double w = -1, r = -1, iops = -1;
	uint64_t sectors = 0, size = PL_SIZE;
	struct sb_err e = { 0 };

	if (sb_sysfs_dev_attr_u64(dev, "size", &sectors, NULL) == 0 && sectors * 512 / 2 < size)
		size = sectors * 512 / 2 / (1 << 20) * (1 << 20);
	if (size < (4 << 20)) {
		json_object_object_add(f, "note", json_object_new_string("too small to measure"));
		return f;
	}
	if (pl_job(dev, SB_RW_WRITE, 1 << 20, 4, size, 0, &w, false, &e) < 0 ||
	    pl_job(dev, SB_RW_READ, 1 << 20, 4, size, 0, &r, false, &e) < 0 ||
	    pl_job(dev, SB_RW_RANDREAD, 4096, 32, size, PL_RAND_NS, &iops, true, &e) < 0) {
		sb_warn("per-layer: %s: %s", dev, e.msg);
		json_object_object_add(f, "note", json_object_new_string(e.msg));
	}
	json_object_object_add(f, "seq_write_mbs", num_or_null(w));
	json_object_object_add(f, "seq_read_mbs", num_or_null(r));
	json_object_object_add(f, "randread_4k_iops", num_or_null(iops >= 0 ? (double)(int64_t)(iops + 0.5) : -1));
	return f;
}

/* The 512 vs 4096 question at the cipher: AF_ALG with one request and one
 * IV per sector at both sizes (libcryptsetup's benchmark takes no sector
 * size). Informational: not a ceiling (a system call per request). */
static void add_per_sector(const struct sb_layer *l, struct json_object *row)
{
	const struct sb_luks_spec *ls = &l->spec->luks;
	struct sb_crypto_sector v[2];
	static const unsigned sizes[2] = { 512, 4096 };
	struct json_object *o;
	struct sb_err e = { 0 };
	unsigned i;

	for (i = 0; i < 2; i++)
		if (sb_crypto_sector_measure(ls->cipher, ls->key_size, sizes[i], 300000000ULL, &v[i], &e) < 0) {
			sb_verbose("per-layer: %s", e.msg);
			return;
		}
	o = json_object_new_object();
	json_object_object_add(o, "sector_512_mbs", json_object_new_double((double)(int64_t)(v[0].enc_mbs * 10) / 10));
	json_object_object_add(o, "sector_4096_mbs", json_object_new_double((double)(int64_t)(v[1].enc_mbs * 10) / 10));
	json_object_object_add(o, "ratio_4096_to_512", json_object_new_double(
		(double)(int64_t)(v[1].enc_mbs / v[0].enc_mbs * 1000) / 1000));
	json_object_object_add(o, "stack_sector_size", json_object_new_int((int)ls->sector_size));
	if (v[0].driver[0])
		json_object_object_add(o, "driver", json_object_new_string(v[0].driver));
	json_object_object_add(o, "method", json_object_new_string(
		"AF_ALG skcipher, one request per sector with its own plain64 IV, 0.3 s each (encrypt; "
		"the same measure as `stackbench ciphers`): includes a system call per request that "
		"dm-crypt does not make (not a ceiling)"));
	json_object_object_add(row, "cipher_per_sector", o);
}

/* The luks layer's cipher ceiling, from its own read-back (the kernel
 * crypto API through libcryptsetup's benchmark at this cipher and key
 * size), in MB/s. */
static void add_cipher_ceiling(const struct sb_layer *l, struct json_object *row)
{
	struct json_object *d = json_object_new_object(), *b, *v, *c;
	struct sb_err e = { 0 };

	if (l->ops->describe && l->ops->describe(l, d, &e) == 0 &&
	    json_object_object_get_ex(d, "cipher_benchmark", &b) &&
	    json_object_object_get_ex(b, "encrypt_MiB_s", &v)) {
		c = json_object_new_object();
		json_object_object_add(c, "encrypt_mbs", json_object_new_double(
			json_object_get_double(v) * 1.048576));
		if (json_object_object_get_ex(b, "decrypt_MiB_s", &v))
			json_object_object_add(c, "decrypt_mbs", json_object_new_double(
				json_object_get_double(v) * 1.048576));
		json_object_object_add(c, "method", json_object_new_string(
			"libcryptsetup crypt_benchmark (kernel crypto API via AF_ALG, 1 MiB requests): "
			"the cipher alone, without dm-crypt's per-sector requests"));
		json_object_object_add(row, "cipher_ceiling", c);
	}
	json_object_put(d);
	add_per_sector(l, row);
}

int sb_per_layer_after(struct sb_stack *s, unsigned k, void *ctx, struct sb_err *err)
{
	struct sb_per_layer *pl = ctx;
	const struct sb_layer *l = &s->layers[k];
	unsigned i;

	if (!block_layer(l->ops->name))
		return 0;
	for (i = 0; i < l->ndev; i++) {
		struct json_object *row = json_object_new_object(), *f;

		if (pl->stop && *pl->stop)
			return sb_err_set(err, -EINTR, "interrupted while measuring layer %s", l->ops->name);
		sb_info("%s: per-layer: %s %s (seq write, seq read 1 MiB QD4; 4 KiB randread QD32)",
			s->spec->name, l->ops->name, l->dev[i]);
		f = measure_dev(l->dev[i], err);
		json_object_object_add(row, "order", json_object_new_int(++pl->order));
		json_object_object_add(row, "layer", json_object_new_string(l->ops->name));
		json_object_object_add(row, "device", json_object_new_string(l->dev[i]));
		json_object_object_add(row, "figures", f);
		if (!strcmp(l->ops->name, "luks"))
			add_cipher_ceiling(l, row);
		json_object_array_add(pl->rows, row);
	}
	return 0;
}

void sb_per_layer_begin(struct sb_per_layer *pl, volatile sig_atomic_t *stop)
{
	pl->rows = json_object_new_array();
	pl->order = 0;
	pl->stop = stop;
}

void sb_per_layer_end(struct sb_per_layer *pl, const struct sb_stack_spec *spec,
		      struct json_object *res)
{
	sb_per_layer_expect(pl->rows, spec);
	sb_results_set_per_layer(res, pl->rows);
	pl->rows = NULL;
}
