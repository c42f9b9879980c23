/* See capture.h. */
#include "sys/capture.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/wait.h>

#include <glib.h>

#include "sys/dm.h"
#include "sys/sysfs.h"

static const char *const queue_attrs[] = {
	"rotational", "scheduler", "nr_requests", "max_sectors_kb", "read_ahead_kb", "write_cache",
	"logical_block_size", "physical_block_size", NULL,
};

struct json_object *sb_capture_queue_dir(const char *qdir)
{
	struct json_object *q = json_object_new_object();
	char path[PATH_MAX + 64], v[256], *end;
	unsigned i;

	for (i = 0; queue_attrs[i]; i++) {
		long long n;

		snprintf(path, sizeof(path), "%s/%s", qdir, queue_attrs[i]);
		if (sb_sysfs_read_str(path, v, sizeof(v), NULL) < 0) {
			json_object_object_add(q, queue_attrs[i], NULL);
			continue;
		}
		n = strtoll(v, &end, 10);
		json_object_object_add(q, queue_attrs[i], end != v && !*end ? json_object_new_int64(n)
				       : json_object_new_string(v));
	}
	return q;
}

static void copy_key(struct json_object *from, const char *key, struct json_object *to)
{
	struct json_object *v;

	if (json_object_object_get_ex(from, key, &v))
		json_object_object_add(to, key, json_object_get(v));
}

/* ATA attribute 5 (Reallocated_Sector_Ct)'s raw value; -1 if absent. */
static long long ata_reallocated(struct json_object *j)
{
	struct json_object *a, *t, *e, *v, *raw;
	size_t i;

	if (!json_object_object_get_ex(j, "ata_smart_attributes", &a) ||
	    !json_object_object_get_ex(a, "table", &t) || !json_object_is_type(t, json_type_array))
		return -1;
	for (i = 0; i < json_object_array_length(t); i++) {
		e = json_object_array_get_idx(t, i);
		if (json_object_object_get_ex(e, "id", &v) && json_object_get_int(v) == 5 &&
		    json_object_object_get_ex(e, "raw", &raw) && json_object_object_get_ex(raw, "value", &v))
			return json_object_get_int64(v);
	}
	return -1;
}

/* smartctl's own error message ("Smartctl open device: /dev/sda failed:
 * Permission denied"), the first of smartctl.messages. */
static void smart_message(struct json_object *j, char *out, size_t len)
{
	struct json_object *s, *m, *e, *v;

	snprintf(out, len, "no message");
	if (json_object_object_get_ex(j, "smartctl", &s) && json_object_object_get_ex(s, "messages", &m) &&
	    json_object_is_type(m, json_type_array) && json_object_array_length(m) &&
	    (e = json_object_array_get_idx(m, 0)) && json_object_object_get_ex(e, "string", &v) &&
	    json_object_is_type(v, json_type_string))
		snprintf(out, len, "%s", json_object_get_string(v));
}

struct json_object *sb_capture_smart_parse(const char *text, int exit_status)
{
	static const char *const keys[] = { "model_name", "serial_number", "firmware_version", "rotation_rate",
					    "user_capacity", "smart_status", "power_on_time", "temperature", NULL };
	struct json_object *j = text ? json_tokener_parse(text) : NULL, *o;
	char why[320], msg[256];
	long long realloc;
	unsigned i;

	if (!j || !json_object_is_type(j, json_type_object)) {
		json_object_put(j);
		return json_object_new_string("not available: smartctl gave no JSON");
	}
	/* bits 0 and 1: the command line was refused, or the device could not
	 * be opened: nothing of the drive is known */
	if (exit_status & 3) {
		smart_message(j, msg, sizeof(msg));
		snprintf(why, sizeof(why), "not available: smartctl exit status %d: %s", exit_status, msg);
		json_object_put(j);
		return json_object_new_string(why);
	}
	o = json_object_new_object();
	for (i = 0; keys[i]; i++)
		copy_key(j, keys[i], o);
	if ((realloc = ata_reallocated(j)) >= 0)
		json_object_object_add(o, "reallocated_sectors", json_object_new_int64(realloc));
	json_object_object_add(o, "smartctl_exit_status", json_object_new_int(exit_status));
	json_object_put(j);
	return o;
}

/* Why a device has no SMART, from its kernel name; NULL for a disk. */
const char *sb_capture_no_smart(const char *kname)
{
	static const struct { const char *prefix, *what; } virt[] = {
		{ "loop", "loop" }, { "ubd", "user-mode-linux block" }, { "ram", "RAM" }, { "zram", "RAM" },
		{ "dm-", "device-mapper" }, { "md", "md" }, { "nbd", "network" },
	};
	unsigned i;

	for (i = 0; i < sizeof(virt) / sizeof(virt[0]); i++)
		if (!strncmp(kname, virt[i].prefix, strlen(virt[i].prefix)))
			return virt[i].what;
	return NULL;
}

/* smartctl --json -i -H -A: identity, the overall health verdict and the
 * attributes it is read for (power-on hours, reallocated sectors). */
static struct json_object *smart_json(const char *dev, const char *kname)
{
	const char *argv[] = { "smartctl", "--json", "-i", "-H", "-A", dev, NULL };
	const char *virt = sb_capture_no_smart(kname);
	struct json_object *o;
	gchar *out = NULL;
	GError *gerr = NULL;
	gint status = 0;
	char why[320];

	if (virt) {
		snprintf(why, sizeof(why), "not available: %s is a %s device, not a disk (no SMART)", dev, virt);
		return json_object_new_string(why);
	}
	if (!g_spawn_sync(NULL, (gchar **)argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
			  NULL, NULL, &out, NULL, &status, &gerr)) {
		snprintf(why, sizeof(why), "not available: smartctl did not run (%s; smartmontools installed?)",
			 gerr ? gerr->message : "?");
		g_clear_error(&gerr);
		return json_object_new_string(why);
	}
	o = sb_capture_smart_parse(out, WIFEXITED(status) ? WEXITSTATUS(status) : 255);
	g_free(out);
	return o;
}

struct json_object *sb_capture_member(const char *dev)
{
	struct json_object *m = json_object_new_object();
	char kname[64] = "", qdir[PATH_MAX];

	sb_sysfs_dev_kname(dev, kname, sizeof(kname), NULL);
	json_object_object_add(m, "device", json_object_new_string(dev));
	json_object_object_add(m, "kernel_name", json_object_new_string(kname));
	if (sb_sysfs_dev_dir(dev, qdir, sizeof(qdir) - 6, NULL) == 0) {
		strcat(qdir, "/queue");
		json_object_object_add(m, "queue", sb_capture_queue_dir(qdir));
	} else {
		json_object_object_add(m, "queue", json_object_new_object());
	}
	json_object_object_add(m, "smart", smart_json(dev, kname));
	return m;
}

/* dm-integrity's keyed arguments "internal_hash:alg:key",
 * "journal_crypt:alg:key", "journal_mac:alg:key" keep their name and
 * algorithm; anything else (internal_hash:crc32c, dm-crypt's
 * integrity:28:aead) is left as it is. */
static void hide_keyed(const char *tok, char *out, size_t len)
{
	static const char *const keyed[] = { "internal_hash:", "journal_crypt:", "journal_mac:" };
	const char *a, *b;
	unsigned i;

	for (i = 0; i < sizeof(keyed) / sizeof(keyed[0]); i++) {
		if (strncmp(tok, keyed[i], strlen(keyed[i])))
			continue;
		a = tok + strlen(keyed[i]) - 1;
		/* the algorithm may hold no ':'; the key is everything after it */
		if ((b = strchr(a + 1, ':'))) {
			snprintf(out, len, "%.*s:<key hidden>", (int)(b - tok), tok);
			return;
		}
	}
	snprintf(out, len, "%s", tok);
}

int sb_capture_dm_line(unsigned long long sectors, const char *target, const char *params, char *out, size_t len)
{
	char *copy = strdup(params ? params : ""), *save = NULL, *p, w[600];
	size_t o;
	unsigned i = 0;

	if (!copy)
		return -ENOMEM;
	o = (size_t)snprintf(out, len, "0 %llu %s", sectors, target);
	for (p = strtok_r(copy, " ", &save); p && o < len; p = strtok_r(NULL, " ", &save), i++) {
		/* dm-crypt: cipher, then the key (hex or :len:keyring:desc) */
		if (!strcmp(target, "crypt") && i == 1)
			snprintf(w, sizeof(w), "<key hidden>");
		else
			hide_keyed(p, w, sizeof(w));
		o += (size_t)snprintf(out + o, len - o, " %s", w);
	}
	free(copy);
	return 0;
}

struct json_object *sb_capture_dm_table(const char *name)
{
	struct sb_dm_target t;
	char line[2048];

	if (sb_dm_first(name, 0, &t) || sb_capture_dm_line((unsigned long long)t.sectors, t.target, t.params,
							   line, sizeof(line)))
		return NULL;
	return json_object_new_string(line);
}
