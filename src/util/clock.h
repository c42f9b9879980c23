/* The one clock stackbench reads for timeouts, deadlines and durations:
 * CLOCK_MONOTONIC, which no settimeofday or NTP step moves. */
#ifndef SB_UTIL_CLOCK_H
#define SB_UTIL_CLOCK_H

#include <stdint.h>

uint64_t sb_clock_ns(void);
uint64_t sb_clock_ms(void);
/* in seconds, for durations printed or recorded as such */
double sb_clock_s(void);

#endif
