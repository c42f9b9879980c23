/* The NUMA family (bench/jobnuma.c): fio's numa_cpu_nodes, numa_mem_policy. */
#ifndef SB_BENCH_JOBNUMA_H
#define SB_BENCH_JOBNUMA_H

#include "bench/job.h"

/* In a job thread before its first io: its CPUs and memory policy. */
int sb_numa_thread(const struct sb_job_opts *o, struct sb_err *err);

#endif
