/* Units, parsed strictly. Stack files: KiB/MiB/GiB/TiB are binary,
 * KB/MB/GB/TB decimal, B or a bare number is bytes. fio's bare one-letter
 * suffixes (4k, 1m, 1g, 1t; either case) are accepted too and are binary,
 * as in fio. Fractions ("1.5GiB") are allowed when the result is a whole
 * number of bytes. Throughput in text output is MB/s = 10^6 B/s unless the
 * column says MiB/s. */
#ifndef SB_UTIL_UNITS_H
#define SB_UTIL_UNITS_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

/* "512KiB" -> 524288. -EINVAL with a message naming the allowed units;
 * -ERANGE on overflow. */
int sb_size_parse(const char *s, uint64_t *out, struct sb_err *err);

/* "5s", "500ms", "250us", "2m", "1h", bare number = seconds. */
int sb_duration_parse(const char *s, uint64_t *ns_out, struct sb_err *err);

/* Exact binary form when it divides ("512 KiB", "1 GiB"), else bytes ("1000 B"). */
void sb_size_format(uint64_t bytes, char *buf, size_t len);

/* Human, rounded ("1.5 GiB"). */
void sb_size_format_human(uint64_t bytes, char *buf, size_t len);

/* bytes over ns, in MB/s (10^6 bytes per second). */
double sb_mbps(uint64_t bytes, uint64_t ns);

#endif
