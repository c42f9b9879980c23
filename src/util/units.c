#include "util/units.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct unit { const char *name; uint64_t mult; int exact_case; };

static const struct unit size_units[] = {
	{ "B", 1, 1 },
	{ "KiB", 1ULL << 10, 1 }, { "MiB", 1ULL << 20, 1 },
	{ "GiB", 1ULL << 30, 1 }, { "TiB", 1ULL << 40, 1 },
	{ "KB", 1000ULL, 1 }, { "MB", 1000000ULL, 1 },
	{ "GB", 1000000000ULL, 1 }, { "TB", 1000000000000ULL, 1 },
	/* fio's bare suffixes, binary as in fio */
	{ "k", 1ULL << 10, 0 }, { "m", 1ULL << 20, 0 },
	{ "g", 1ULL << 30, 0 }, { "t", 1ULL << 40, 0 },
};

/* Strictly digits[.digits]: strtold alone would also take hex ("0x10"),
 * exponents ("1e3"), "inf", "nan" and leading whitespace or signs. */
static int parse_number(const char *s, const char **end, long double *val)
{
	const char *p = s;
	char buf[64];
	size_t n;

	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		while (isdigit((unsigned char)*p))
			p++;
	}
	n = (size_t)(p - s);
	if (n >= sizeof(buf))
		return -ERANGE;
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	*val = strtold(buf, NULL);
	if (errno)
		return -ERANGE;
	*end = p;
	return 0;
}

static const struct unit dur_units[] = {
	{ "ns", 1ULL, 1 }, { "us", 1000ULL, 1 }, { "ms", 1000000ULL, 1 },
	{ "s", 1000000000ULL, 1 }, { "m", 60ULL * 1000000000ULL, 1 },
	{ "h", 3600ULL * 1000000000ULL, 1 },
};

/* A number with a unit from a table, and the words its messages use. */
struct quantity {
	const char *what, *example, *too, *allowed;
	const struct unit *units;
	size_t nunits;
	long double bare;          /* the factor of a number without a unit */
};

static const struct quantity size_q = {
	"size", "512KiB, 4GiB or 100MB", "large",
	"B, KiB, MiB, GiB, TiB (binary), KB, MB, GB, TB (decimal), or fio's k, m, g, t (binary)",
	size_units, sizeof(size_units) / sizeof(size_units[0]), 1,
};

static const struct quantity dur_q = {
	"duration", "500ms, 5s, 2m or 1h", "long", "ns, us, ms, s, m, h",
	dur_units, sizeof(dur_units) / sizeof(dur_units[0]), 1e9L,
};

/* s as a number times its unit's factor, into *r. */
static int parse_quantity(const char *s, const struct quantity *q, long double *r, struct sb_err *err)
{
	const char *p;
	long double v;
	size_t i;
	int rc;

	if (!s || !*s)
		return sb_err_set(err, -EINVAL, "empty %s; use a number with a unit such as %s", q->what, q->example);
	rc = parse_number(s, &p, &v);
	if (rc == -ERANGE)
		return sb_err_set(err, -ERANGE, "'%s' is too %s", s, q->too);
	if (rc < 0)
		return sb_err_set(err, -EINVAL, "'%s' is not a %s; use a number with a unit such as %s", s,
				  q->what, q->example);
	while (*p == ' ')
		p++;
	if (!*p) {
		*r = v * q->bare;
		return 0;
	}
	for (i = 0; i < q->nunits; i++) {
		const struct unit *u = &q->units[i];

		if (u->exact_case ? !strcmp(p, u->name) : !strcasecmp(p, u->name))
			break;
	}
	if (i == q->nunits)
		return sb_err_set(err, -EINVAL, "'%s' has an unknown unit '%s'; allowed: %s", s, p, q->allowed);
	*r = v * (long double)q->units[i].mult;
	return 0;
}

int sb_size_parse(const char *s, uint64_t *out, struct sb_err *err)
{
	long double r;
	int rc = parse_quantity(s, &size_q, &r, err);

	if (rc < 0)
		return rc;
	if (r > (long double)UINT64_MAX)
		return sb_err_set(err, -ERANGE, "'%s' is too large", s);
	if (r != floorl(r))
		return sb_err_set(err, -EINVAL, "'%s' is not a whole number of bytes", s);
	*out = (uint64_t)r;
	return 0;
}

int sb_duration_parse(const char *s, uint64_t *ns_out, struct sb_err *err)
{
	long double r;
	int rc = parse_quantity(s, &dur_q, &r, err);

	if (rc < 0)
		return rc;
	/* roundl, not llroundl: the latter overflows above 2^63 */
	if (roundl(r) > (long double)UINT64_MAX)
		return sb_err_set(err, -ERANGE, "'%s' is too long", s);
	*ns_out = (uint64_t)roundl(r);
	return 0;
}

void sb_size_format(uint64_t bytes, char *buf, size_t len)
{
	static const char *const names[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int i = 0;

	while (i < 4 && bytes && !(bytes & 1023)) {
		bytes >>= 10;
		i++;
	}
	snprintf(buf, len, "%llu %s", (unsigned long long)bytes, names[i]);
}

void sb_size_format_human(uint64_t bytes, char *buf, size_t len)
{
	static const char *const names[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = (double)bytes;
	int i = 0;

	while (i < 5 && v >= 1024.0) {
		v /= 1024.0;
		i++;
	}
	if (i == 0)
		snprintf(buf, len, "%llu B", (unsigned long long)bytes);
	else
		snprintf(buf, len, "%.1f %s", v, names[i]);
}

double sb_mbps(uint64_t bytes, uint64_t ns)
{
	if (!ns)
		return 0.0;
	return (double)bytes / ((double)ns / 1e9) / 1e6;
}
