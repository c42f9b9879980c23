#include "util/units.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/u128.h"

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

/* A decimal number as written: its integer and fraction digits. */
struct decimal { const char *ip, *fp; size_t ni, nf; };

/* Strictly digits[.digits] (no hex, exponent, inf, sign or space), at
 * most 63 characters. */
static int parse_number(const char *s, const char **end, struct decimal *d)
{
	const char *p = s;

	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	d->ip = p;
	while (isdigit((unsigned char)*p))
		p++;
	d->ni = (size_t)(p - s);
	d->fp = p;
	d->nf = 0;
	if (*p == '.') {
		d->fp = ++p;
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		while (isdigit((unsigned char)*p))
			p++;
		d->nf = (size_t)(p - d->fp);
	}
	if (p - s >= 64)
		return -ERANGE;
	*end = p;
	return 0;
}

/* d * mult exactly, in integers: the whole part into *whole (-ERANGE past
 * 2^64 - 1); *frac_half set when the fraction left is >= 1/2, *frac_zero
 * when it is 0. The fraction digits times mult are worked from the last
 * digit up, schoolbook, so no digit is lost (mult < 2^60). */
static int decimal_scale(const struct decimal *d, uint64_t mult, uint64_t *whole, int *frac_half,
			 int *frac_zero)
{
	uint64_t ip = 0, carry = 0, digit = 0;
	struct sb_u128 p;
	size_t i;

	*frac_zero = 1;
	for (i = d->nf; i-- > 0;) {
		uint64_t t = (uint64_t)(d->fp[i] - '0') * mult + carry;

		digit = t % 10;
		carry = t / 10;
		if (digit)
			*frac_zero = 0;
	}
	*frac_half = d->nf && digit >= 5;
	for (i = 0; i < d->ni; i++) {
		uint64_t c = (uint64_t)(d->ip[i] - '0');

		if (ip > (UINT64_MAX - c) / 10)
			return -ERANGE;
		ip = ip * 10 + c;
	}
	p = sb_u128_mul64(ip, mult);
	if (p.hi || p.lo > UINT64_MAX - carry)
		return -ERANGE;
	*whole = p.lo + carry;
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
	uint64_t bare;             /* the factor of a number without a unit */
};

static const struct quantity size_q = {
	"size", "512KiB, 4GiB or 100MB", "large",
	"B, KiB, MiB, GiB, TiB (binary), KB, MB, GB, TB (decimal), or fio's k, m, g, t (binary)",
	size_units, sizeof(size_units) / sizeof(size_units[0]), 1,
};

static const struct quantity dur_q = {
	"duration", "500ms, 5s, 2m or 1h", "long", "ns, us, ms, s, m, h",
	dur_units, sizeof(dur_units) / sizeof(dur_units[0]), 1000000000ULL,
};

/* s as a number and the factor of its unit. */
static int parse_quantity(const char *s, const struct quantity *q, struct decimal *v, uint64_t *mult,
			  struct sb_err *err)
{
	const char *p;
	size_t i;
	int rc;

	if (!s || !*s)
		return sb_err_set(err, -EINVAL, "empty %s; use a number with a unit such as %s", q->what, q->example);
	rc = parse_number(s, &p, v);
	if (rc == -ERANGE)
		return sb_err_set(err, -ERANGE, "'%s' is too %s", s, q->too);
	if (rc < 0)
		return sb_err_set(err, -EINVAL, "'%s' is not a %s; use a number with a unit such as %s", s,
				  q->what, q->example);
	while (*p == ' ')
		p++;
	if (!*p) {
		*mult = q->bare;
		return 0;
	}
	for (i = 0; i < q->nunits; i++) {
		const struct unit *u = &q->units[i];

		if (u->exact_case ? !strcmp(p, u->name) : !strcasecmp(p, u->name))
			break;
	}
	if (i == q->nunits)
		return sb_err_set(err, -EINVAL, "'%s' has an unknown unit '%s'; allowed: %s", s, p, q->allowed);
	*mult = q->units[i].mult;
	return 0;
}

int sb_size_parse(const char *s, uint64_t *out, struct sb_err *err)
{
	struct decimal v;
	uint64_t mult, r;
	int rc = parse_quantity(s, &size_q, &v, &mult, err), half, zero;

	if (rc < 0)
		return rc;
	if (decimal_scale(&v, mult, &r, &half, &zero) < 0)
		return sb_err_set(err, -ERANGE, "'%s' is too large", s);
	if (!zero)
		return sb_err_set(err, -EINVAL, "'%s' is not a whole number of bytes", s);
	*out = r;
	return 0;
}

int sb_duration_parse(const char *s, uint64_t *ns_out, struct sb_err *err)
{
	struct decimal v;
	uint64_t mult, r;
	int rc = parse_quantity(s, &dur_q, &v, &mult, err), half, zero;

	if (rc < 0)
		return rc;
	/* to the nearest nanosecond, halves away from zero */
	if (decimal_scale(&v, mult, &r, &half, &zero) < 0 || (half && r == UINT64_MAX))
		return sb_err_set(err, -ERANGE, "'%s' is too long", s);
	*ns_out = r + (uint64_t)half;
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
