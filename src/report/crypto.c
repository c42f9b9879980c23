#include "report/crypto.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sb_crypto_api_names(const char *spec, char names[][128], int max)
{
	char cipher[64], mode[64], iv[64];
	const char *p, *q;
	int n = 0;

	if (!spec || max < 1)
		return 0;
	if (!strncmp(spec, "capi:", 5)) {
		/* "capi:xts(aes)-plain64": the algorithm is written out */
		p = spec + 5;
		q = strrchr(p, '-');
		snprintf(names[0], 128, "%.*s", (int)(q ? q - p : (long)strlen(p)), p);
		return 1;
	}
	p = strchr(spec, '-');
	if (!p || p == spec || (size_t)(p - spec) >= sizeof(cipher))
		return 0;
	snprintf(cipher, sizeof(cipher), "%.*s", (int)(p - spec), spec);
	q = strchr(p + 1, '-');
	snprintf(mode, sizeof(mode), "%.*s", (int)(q ? q - p - 1 : (long)strlen(p + 1)), p + 1);
	snprintf(iv, sizeof(iv), "%s", q ? q + 1 : "");
	if (!*mode)
		return 0;
	/* dm-crypt (Linux >= 5.4) asks for essiv(MODE(CIPHER),HASH) for ESSIV */
	if (!strncmp(iv, "essiv:", 6) && n < max)
		snprintf(names[n++], 128, "essiv(%.36s(%.36s),%.36s)", mode, cipher, iv + 6);
	if (n < max)
		snprintf(names[n++], 128, "%.60s(%.60s)", mode, cipher);
	return n;
}

struct entry {
	char name[128], driver[128], type[32];
	long priority;
};

static void field(const char *line, const char *key, char *dst, size_t len)
{
	size_t k = strlen(key);
	const char *v;

	if (strncmp(line, key, k) || (line[k] != ' ' && line[k] != ':'))
		return;
	v = strchr(line, ':');
	if (!v)
		return;
	v++;
	while (*v == ' ')
		v++;
	snprintf(dst, len, "%s", v);
	dst[strcspn(dst, "\n")] = '\0';
}

int sb_crypto_driver(const char *spec, const char *proc_crypto,
		     struct json_object **out, struct sb_err *err)
{
	char names[4][128], line[512], prio[32];
	struct entry cur, best;
	const char *path = proc_crypto ? proc_crypto : "/proc/crypto";
	int nn, i, have = 0, found = 0;
	FILE *f;

	*out = NULL;
	nn = sb_crypto_api_names(spec, names, 4);
	if (!nn)
		return sb_err_set(err, -EINVAL, "cipher '%s': not a dm-crypt cipher spec", spec);
	f = fopen(path, "re");
	if (!f)
		return sb_err_sys(err, -errno, "cannot read %s", path);
	/* Most specific name first; within a name the highest priority wins,
	 * as the kernel's own lookup does. */
	for (i = 0; i < nn && !found; i++) {
		rewind(f);
		memset(&cur, 0, sizeof(cur));
		prio[0] = '\0';
		for (;;) {
			char *ok = fgets(line, sizeof(line), f);

			if (!ok || line[0] == '\n') {
				cur.priority = atol(prio);
				if (!strcmp(cur.name, names[i]) &&
				    (!strcmp(cur.type, "skcipher") || !strcmp(cur.type, "lskcipher")) &&
				    (!have || cur.priority > best.priority)) {
					best = cur;
					have = found = 1;
				}
				memset(&cur, 0, sizeof(cur));
				prio[0] = '\0';
				if (!ok)
					break;
				continue;
			}
			field(line, "name", cur.name, sizeof(cur.name));
			field(line, "driver", cur.driver, sizeof(cur.driver));
			field(line, "type", cur.type, sizeof(cur.type));
			field(line, "priority", prio, sizeof(prio));
		}
	}
	fclose(f);
	if (!found)
		return sb_err_set(err, -ENOENT, "cipher '%s': no %s in %s (is the mapping active?)",
				  spec, names[0], path);
	*out = json_object_new_object();
	json_object_object_add(*out, "name", json_object_new_string(best.name));
	json_object_object_add(*out, "driver", json_object_new_string(best.driver));
	json_object_object_add(*out, "priority", json_object_new_int64(best.priority));
	/* Generic C implementations say so in their driver name
	 * ("xts(ecb(aes-generic))", "cbc(ecb(aes-fixed-time))"); anything
	 * else is an accelerated one ("xts-aes-aesni", "mv-cbc-aes"). */
	json_object_object_add(*out, "accelerated",
			       json_object_new_boolean(!strstr(best.driver, "generic") &&
						       !strstr(best.driver, "fixed-time")));
	return 0;
}
