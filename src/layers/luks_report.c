/* luks layer, the report's part (report/layer_report.h): its columns of the
 * comparison table (the sector size, the cipher, the kernel's crypto
 * driver, the cipher's ceiling) and the keys where the mapping as asked and
 * as read back may differ. Read from its stack.built object (what
 * libcryptsetup read back, luks_describe.c) or, lacking a build, from its
 * section of stack.requested. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "layers/luks_int.h"
#include "report/table.h"
#include "util/json.h"

static void col_sector(const struct sb_layer_cells *in, struct sb_cell *cell)
{
	struct json_object *l = sb_layer_cells_built(in, 0), *asked = sb_layer_cells_asked(in, 0);
	struct json_object *ss = sb_json_get(l ? l : asked, "sector_size");

	if (!l && !asked)
		sb_cell_set_str(cell, "no luks");
	else if (ss)
		sb_cell_set_str(cell, json_object_get_string(ss));
	else
		sb_cell_set_str(cell, "?");
}

static void col_cipher(const struct sb_layer_cells *in, struct sb_cell *cell)
{
	struct json_object *l = sb_layer_cells_built(in, 0);

	if (!l)
		l = sb_layer_cells_asked(in, 0);
	sb_cell_set_str(cell, l ? sb_json_str(l, "cipher", "?") : "none");
}

static void col_driver(const struct sb_layer_cells *in, struct sb_cell *cell)
{
	struct json_object *l = sb_layer_cells_built(in, 0), *cd = sb_json_get(l, "crypto_driver");

	if (!l)
		sb_cell_set_str(cell, sb_layer_cells_asked(in, 0) ? "?" : "none");
	else if (!cd)
		sb_cell_set_str(cell, "?");
	else
		sb_cell_set_str(cell, sb_json_str(cd, "driver", sb_json_str(cd, "name", "?")));
}

/* Results "ciphers" (build-and-test records the stack's dm-crypt cipher):
 * the slower of encrypt and decrypt at the mapping's own sector size,
 * through AF_ALG one request per sector (MB/s), one value per file. */
static void col_ceiling(const struct sb_layer_cells *in, struct sb_cell *cell)
{
	double v[256];
	unsigned nv = 0;

	for (unsigned f = 0; f < in->n && nv < sizeof(v) / sizeof(v[0]); f++) {
		struct json_object *l = sb_layer_cells_built(in, f), *sec;
		struct json_object *dm = sb_json_get(sb_json_get(in->res[f], "ciphers"), "dm_crypt");
		const char *ss = sb_json_str(l, "sector_size", NULL);
		double enc, dec;
		char key[16];

		if (!l || !json_object_is_type(dm, json_type_array) || !json_object_array_length(dm))
			continue;
		snprintf(key, sizeof(key), "%d", ss ? atoi(ss) : json_object_get_int(sb_json_get(l, "sector_size")));
		sec = sb_json_get(sb_json_get(json_object_array_get_idx(dm, 0), "sectors"), key);
		if (sb_json_num(sec, "encrypt_mbs", &enc) && sb_json_num(sec, "decrypt_mbs", &dec))
			v[nv++] = fmin(enc, dec);
	}
	sb_cell_set_values(cell, v, nv);
}

static const struct sb_layer_column luks_columns[] = {
	{ "luks_sector", "LUKS sector size", "", 0, col_sector,
	  "the mapping's sector size as read back (as asked before a build); \"no luks\" without LUKS", 1 },
	{ "cipher", "encryption", "", 0, col_cipher,
	  "the mapping's cipher as read back (as asked before a build); \"none\" without LUKS", 1 },
	{ "crypto_driver", "crypto driver", "", 0, col_driver,
	  "the kernel's driver for the cipher (/proc/crypto), as the build found it", 0 },
	{ "cipher_ceiling", "cipher", "MB/s", 1, col_ceiling,
	  "the slower of encrypt and decrypt at the mapping's sector size (results \"ciphers\")", 0 },
	{ .name = NULL },
};

static const struct sb_layer_check luks_checks[] = {
	{ "cipher", "cipher", "LUKS cipher" },
	{ "key_size", "key_size", "LUKS key_size" },
	{ "sector_size", "sector_size", "LUKS sector_size" },
	{ "type", "type", "LUKS type" },
	{ .asked = NULL },
};

const struct sb_layer_report sb_luks_report = {
	.columns = luks_columns,
	.checks = luks_checks,
};
