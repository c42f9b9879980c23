/* bench.per_layer: the cost of every layer, from one build. Each block
 * layer's devices (every member, the md array, the LV, the dm-crypt
 * mapping) get the same raw jobs right after that layer is built and
 * before the next one exists, because the raw writes destroy whatever
 * would sit on top: build -> measure -> build the next. A filesystem
 * without a block device of its own (btrfs over its members, ops
 * .pl_file) gets the same jobs on a file of it once the mount layer has
 * mounted it. The order is recorded. Which layers: those whose ops say per_layer; what each layer
 * reports of itself around the jobs (pl_observe) and its model of the
 * expected figures (pl_model) are the layer's own; the expected figures,
 * the sentences and the limit line are recorded in the rows at the end
 * (sb_per_layer_expect), and compare renders what was recorded. */
#include "run/per_layer.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "bench/engine.h"
#include "core/layer.h"
#include "report/per_layer.h"
#include "report/results.h"
#include "sys/sysfs.h"
#include "util/log.h"

#define PL_SIZE (64ULL << 20)       /* per job: small, so a build-and-test stays short */
#define PL_RAND_NS (2ULL * 1000000000ULL)

static struct json_object *num_or_null(double v)
{
	return v >= 0 ? json_object_new_double(v) : NULL;
}

/* The three raw jobs on one device or file of at most size bytes; a job
 * that fails leaves its figure null and a note, it does not fail the
 * build. */
static struct json_object *measure(const char *dev, uint64_t size)
{
	struct json_object *f = json_object_new_object();
	double w = -1, r = -1, iops = -1;
	struct sb_err e = { 0 };

	if (size < (4 << 20)) {
		json_object_object_add(f, "note", json_object_new_string("too small to measure"));
		return f;
	}
	if (sb_engine_figure(dev, SB_RW_WRITE, 1 << 20, 4, size, 0, false, &w, &e) < 0 ||
	    sb_engine_figure(dev, SB_RW_READ, 1 << 20, 4, size, 0, false, &r, &e) < 0 ||
	    sb_engine_figure(dev, SB_RW_RANDREAD, 4096, 32, size, PL_RAND_NS, true, &iops, &e) < 0) {
		sb_warn("per-layer: %s: %s", dev, e.msg);
		json_object_object_add(f, "note", json_object_new_string(e.msg));
	}
	json_object_object_add(f, "seq_write_mbs", num_or_null(w));
	json_object_object_add(f, "seq_read_mbs", num_or_null(r));
	json_object_object_add(f, "randread_4k_iops", num_or_null(iops >= 0 ? (double)(int64_t)(iops + 0.5) : -1));
	return f;
}

/* A device: half of it, up to PL_SIZE. */
static struct json_object *measure_dev(const char *dev)
{
	uint64_t sectors = 0, size = PL_SIZE;

	if (sb_sysfs_dev_attr_u64(dev, "size", &sectors, NULL) == 0 && sectors * 512 / 2 < size)
		size = sectors * 512 / 2 / (1 << 20) * (1 << 20);
	return measure(dev, size);
}

static struct json_object *new_row(struct sb_per_layer *pl, const char *layer, const char *dev,
				   struct json_object *row)
{
	json_object_object_add(row, "order", json_object_new_int(++pl->order));
	json_object_object_add(row, "layer", json_object_new_string(layer));
	json_object_object_add(row, "device", json_object_new_string(dev));
	return row;
}

/* A filesystem without a block device of its own (ops .pl_file: btrfs
 * over its members), once mounted: the same jobs on a fresh file in it
 * (half its free room, up to PL_SIZE), removed afterwards. */
static int measure_fs_file(struct sb_stack *s, const struct sb_layer *mnt, struct sb_per_layer *pl,
			   struct sb_err *err)
{
	const struct sb_layer *fs = mnt->below;
	char path[SB_PATH_MAX + 32];
	struct json_object *row = json_object_new_object(), *f;
	uint64_t size = PL_SIZE;
	struct statvfs sv;
	int fd;

	if (pl->stop && *pl->stop) {
		json_object_put(row);
		return sb_err_set(err, -EINTR, "interrupted while measuring layer %s", fs->ops->name);
	}
	snprintf(path, sizeof(path), "%s/.sb-per-layer", mnt->mountpoint);
	if (statvfs(mnt->mountpoint, &sv) == 0 && (uint64_t)sv.f_bavail * sv.f_frsize / 2 < size)
		size = (uint64_t)sv.f_bavail * sv.f_frsize / 2 / (1 << 20) * (1 << 20);
	sb_info("%s: per-layer: %s %s (seq write, seq read 1 MiB QD4; 4 KiB randread QD32)",
		s->spec->name, fs->ops->name, path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		f = json_object_new_object();
		json_object_object_add(f, "note", json_object_new_string("could not create the file to measure"));
		sb_warn("per-layer: create %s: %s", path, strerror(errno));
	} else {
		close(fd);
		f = measure(path, size);
		if (unlink(path) < 0)
			sb_warn("per-layer: remove %s: %s", path, strerror(errno));
	}
	json_object_object_add(new_row(pl, fs->ops->name, path, row), "figures", f);
	json_object_array_add(pl->rows, row);
	return 0;
}

int sb_per_layer_after(struct sb_stack *s, unsigned k, void *ctx, struct sb_err *err)
{
	struct sb_per_layer *pl = ctx;
	const struct sb_layer *l = &s->layers[k];
	unsigned i;

	if (l->mountpoint[0] && l->below && l->below->ops->pl_file)
		return measure_fs_file(s, l, pl, err);
	if (!l->ops->per_layer)
		return 0;
	for (i = 0; i < l->ndev; i++) {
		struct json_object *row = json_object_new_object(), *f;

		if (pl->stop && *pl->stop) {
			json_object_put(row);
			return sb_err_set(err, -EINTR, "interrupted while measuring layer %s", l->ops->name);
		}
		sb_info("%s: per-layer: %s %s (seq write, seq read 1 MiB QD4; 4 KiB randread QD32)",
			s->spec->name, l->ops->name, l->dev[i]);
		if (l->ops->pl_observe)
			l->ops->pl_observe(l, i, false, row);
		f = measure_dev(l->dev[i]);
		json_object_object_add(new_row(pl, l->ops->name, l->dev[i], row), "figures", f);
		if (l->ops->pl_observe)
			l->ops->pl_observe(l, i, true, row);
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

void sb_per_layer_expect(struct json_object *rows, const struct sb_stack_spec *spec)
{
	size_t i, n = rows ? json_object_array_length(rows) : 0;

	for (i = 0; i < n; i++) {
		struct json_object *row = json_object_array_get_idx(rows, i), *v;
		const struct sb_layer_ops *ops = NULL;
		struct sb_pl_below b;
		struct sb_pl_model m;

		if (json_object_object_get_ex(row, "layer", &v))
			ops = sb_layer_find(json_object_get_string(v));
		sb_pl_below_of(rows, i, &b);
		sb_pl_model_below(&b, &m);
		if (ops && ops->pl_model && b.n)
			ops->pl_model(spec, row, &b, &m);
		sb_pl_record(row, &b, &m);
	}
}

void sb_per_layer_end(struct sb_per_layer *pl, const struct sb_stack_spec *spec,
		      struct json_object *res)
{
	sb_per_layer_expect(pl->rows, spec);
	sb_results_set_per_layer(res, pl->rows);
	pl->rows = NULL;
}
