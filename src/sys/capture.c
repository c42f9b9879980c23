/* See capture.h. */
#include "sys/capture.h"

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

static struct json_object *queue_json(const char *dev)
{
	struct json_object *q = json_object_new_object();
	char attr[64], v[256], *end;
	unsigned i;

	for (i = 0; queue_attrs[i]; i++) {
		long long n;

		snprintf(attr, sizeof(attr), "queue/%s", queue_attrs[i]);
		if (sb_sysfs_dev_attr_str(dev, attr, v, sizeof(v), NULL) < 0) {
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

/* smartctl --json -i -H: identity and the overall health verdict. */
static struct json_object *smart_json(const char *dev, const char *kname)
{
	const char *argv[] = { "smartctl", "--json", "-i", "-H", dev, NULL };
	struct json_object *j, *o;
	gchar *out = NULL;
	GError *gerr = NULL;
	gint status = 0;
	char why[256];

	if (!strncmp(kname, "loop", 4) || !strncmp(kname, "ubd", 3) || !strncmp(kname, "ram", 3) ||
	    !strncmp(kname, "dm-", 3) || !strncmp(kname, "md", 2)) {
		snprintf(why, sizeof(why), "not available: %s is a %s device, not a disk (no SMART)", dev,
			 !strncmp(kname, "ubd", 3) ? "user-mode-linux block" : kname[0] == 'l' ? "loop" :
			 kname[0] == 'r' ? "RAM" : "virtual");
		return json_object_new_string(why);
	}
	if (!g_spawn_sync(NULL, (gchar **)argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
			  NULL, NULL, &out, NULL, &status, &gerr)) {
		snprintf(why, sizeof(why), "not available: smartctl did not run (%s; smartmontools installed?)",
			 gerr ? gerr->message : "?");
		g_clear_error(&gerr);
		return json_object_new_string(why);
	}
	j = out ? json_tokener_parse(out) : NULL;
	g_free(out);
	if (!j)
		return json_object_new_string("not available: smartctl gave no JSON");
	o = json_object_new_object();
	copy_key(j, "model_name", o);
	copy_key(j, "serial_number", o);
	copy_key(j, "firmware_version", o);
	copy_key(j, "rotation_rate", o);
	copy_key(j, "user_capacity", o);
	copy_key(j, "smart_status", o);
	json_object_object_add(o, "smartctl_exit_status", json_object_new_int(WEXITSTATUS(status)));
	json_object_put(j);
	return o;
}

struct json_object *sb_capture_member(const char *dev)
{
	struct json_object *m = json_object_new_object();
	char kname[64] = "";

	sb_sysfs_dev_kname(dev, kname, sizeof(kname), NULL);
	json_object_object_add(m, "device", json_object_new_string(dev));
	json_object_object_add(m, "kernel_name", json_object_new_string(kname));
	json_object_object_add(m, "queue", queue_json(dev));
	json_object_object_add(m, "smart", smart_json(dev, kname));
	return m;
}

/* "name:alg:key" tokens (dm-integrity's internal_hash, journal_crypt,
 * journal_mac) keep their name and algorithm. */
static void hide_keyed(char *tok, char *out, size_t len)
{
	char *a = strchr(tok, ':'), *b = a ? strchr(a + 1, ':') : NULL;

	if (b && strchr(b + 1, ':') == NULL && b[1])
		snprintf(out, len, "%.*s:<key hidden>", (int)(b - tok), tok);
	else
		snprintf(out, len, "%s", tok);
}

struct json_object *sb_capture_dm_table(const char *name)
{
	struct sb_dm_target t;
	char line[2048], tok[512], w[600], *save = NULL, *p;
	size_t o;
	unsigned i = 0;

	if (sb_dm_first(name, 0, &t))
		return NULL;
	o = (size_t)snprintf(line, sizeof(line), "0 %llu %s", (unsigned long long)t.sectors, t.target);
	for (p = strtok_r(t.params, " ", &save); p && o < sizeof(line); p = strtok_r(NULL, " ", &save), i++) {
		snprintf(tok, sizeof(tok), "%s", p);
		/* dm-crypt: cipher, then the key (hex or :len:keyring:desc) */
		if (!strcmp(t.target, "crypt") && i == 1)
			snprintf(w, sizeof(w), "<key hidden>");
		else
			hide_keyed(tok, w, sizeof(w));
		o += (size_t)snprintf(line + o, sizeof(line) - o, " %s", w);
	}
	return json_object_new_string(line);
}
