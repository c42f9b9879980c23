/* libFuzzer target for the stack parser and validator: any bytes through
 * sb_spec_load_buffer, and on success through the JSON and summary writers.
 * An input starting with 0x01 carries a --set argument on its first line,
 * so the override path is fuzzed too. */
#include <json-c/json.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "spec/spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sb_spec_list l = { 0 };
	struct sb_err e = { 0 };
	const char *buf = (const char *)data;
	char set[512], sum[512];
	const char *sets[1] = { set };
	unsigned nsets = 0, i;

	if (size && data[0] == 1) {
		const char *nl = memchr(buf, '\n', size);
		size_t n = nl ? (size_t)(nl - buf) - 1 : size - 1;

		if (n >= sizeof(set))
			n = sizeof(set) - 1;
		memcpy(set, buf + 1, n);
		set[n] = '\0';
		if (memchr(set, '\0', n))
			return 0;
		nsets = 1;
		size -= nl ? (size_t)(nl - buf) + 1 : size;
		buf = nl ? nl + 1 : buf + size;
	}
	if (sb_spec_load_buffer(buf, size, "fuzz.yml", sets, nsets, &l, &e) == 0) {
		for (i = 0; i < l.n; i++) {
			struct json_object *j = NULL;

			if (sb_spec_to_json(&l.items[i], &j) == 0) {
				(void)json_object_to_json_string(j);
				json_object_put(j);
			}
			sb_spec_summary(&l.items[i], sum, sizeof(sum));
		}
		sb_spec_list_free(&l);
	} else if (!e.msg[0] || e.code >= 0) {
		abort();   /* every failure must say why */
	}
	return 0;
}
