#include "util/clock.h"

#include <time.h>

uint64_t sb_clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

uint64_t sb_clock_ms(void)
{
	return sb_clock_ns() / 1000000ULL;
}

double sb_clock_s(void)
{
	return (double)sb_clock_ns() / 1e9;
}
