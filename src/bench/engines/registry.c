/* The engines stackbench job knows, by fio's names. */
#include "bench/ioengine.h"

#include "config.h"

#include <errno.h>
#include <string.h>
#include <time.h>

static const struct sb_ioengine_ops *const engines[SB_IOENGINE_COUNT] = {
	[SB_IOENGINE_LIBAIO] = &sb_ioe_libaio,
	[SB_IOENGINE_PSYNC] = &sb_ioe_psync,
	[SB_IOENGINE_SYNC] = &sb_ioe_sync,
	[SB_IOENGINE_NULL] = &sb_ioe_null,
	[SB_IOENGINE_VSYNC] = &sb_ioe_vsync,
	[SB_IOENGINE_PVSYNC] = &sb_ioe_pvsync,
	[SB_IOENGINE_PVSYNC2] = &sb_ioe_pvsync2,
	[SB_IOENGINE_POSIXAIO] = &sb_ioe_posixaio,
	[SB_IOENGINE_FTRUNCATE] = &sb_ioe_ftruncate,
	[SB_IOENGINE_CPUIO] = &sb_ioe_cpuio,
	[SB_IOENGINE_EXEC] = &sb_ioe_exec,
	[SB_IOENGINE_FILECREATE] = &sb_ioe_filecreate,
	[SB_IOENGINE_FILESTAT] = &sb_ioe_filestat,
	[SB_IOENGINE_FILEDELETE] = &sb_ioe_filedelete,
	[SB_IOENGINE_FALLOC] = &sb_ioe_falloc,
	[SB_IOENGINE_NET] = &sb_ioe_net,
	[SB_IOENGINE_E4DEFRAG] = &sb_ioe_e4defrag,
#if SB_HAVE_IO_URING
	[SB_IOENGINE_IO_URING] = &sb_ioe_io_uring,
#endif
};

const struct sb_ioengine_ops *sb_ioengine_find(const char *name)
{
	unsigned i;

	for (i = 0; i < SB_IOENGINE_COUNT; i++)
		if (engines[i] && !strcmp(engines[i]->name, name))
			return engines[i];
	return NULL;
}

const struct sb_ioengine_ops *sb_ioengine_get(enum sb_ioengine id)
{
	return (unsigned)id < SB_IOENGINE_COUNT && engines[id] ? engines[id] : &sb_ioe_psync;
}

const char *sb_ioengine_name(enum sb_ioengine id)
{
	return sb_ioengine_get(id)->name;
}

unsigned sb_ioengine_job_flags(const struct sb_job_opts *o)
{
	unsigned f = sb_ioengine_get(o->ioengine)->flags;

	/* fio's null_init: FIO_SYNCIO at iodepth 1, queued and committed above */
	if (o->ioengine == SB_IOENGINE_NULL && o->iodepth == 1)
		f |= SB_IOF_SYNC;
	return f;
}

bool sb_ioengine_has_slat(const struct sb_job_opts *o)
{
	return !(sb_ioengine_job_flags(o) & SB_IOF_SYNC);
}

void sb_ioengine_sleep_us(uint64_t us)
{
	struct timespec ts = { .tv_sec = (time_t)(us / 1000000), .tv_nsec = (long)(us % 1000000) * 1000 };

	while (us && nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

const char *sb_ioengine_list(void)
{
	return SB_HAVE_IO_URING ? "psync, sync, vsync, pvsync, pvsync2, libaio, posixaio, io_uring, null, ftruncate, cpuio, exec, filecreate, filestat, filedelete, falloc, net or e4defrag"
				: "psync, sync, vsync, pvsync, pvsync2, libaio, posixaio, null, ftruncate, cpuio, exec, filecreate, filestat, filedelete, falloc, net or e4defrag (io_uring: not in this build)";
}
