#include "sys/udev.h"

#include <libudev.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/log.h"

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

bool sb_udev_running(void)
{
	return access("/run/udev/control", F_OK) == 0;
}

int sb_udev_settle(unsigned timeout_ms, struct sb_err *err)
{
	struct udev_queue *q = NULL;
	struct udev *udev = NULL;
	long long deadline = now_ms() + timeout_ms;
	int rc = 0;

	if (!sb_udev_running())
		return 0;
	udev = udev_new();
	if (!udev)
		return sb_err_set(err, -ENOMEM, "udev: cannot create a libudev context");
	q = udev_queue_new(udev);
	if (!q) {
		rc = sb_err_set(err, -ENOMEM, "udev: cannot read the udev queue");
		goto out;
	}
	/* The kernel's uevents reach udevd asynchronously; a queue that looks
	 * empty a microsecond after an ioctl may not have seen them yet, so
	 * give it one short beat before trusting "empty". */
	usleep(20000);
	while (!udev_queue_get_queue_is_empty(q)) {
		if (now_ms() >= deadline) {
			rc = sb_err_set(err, -ETIMEDOUT,
					"udev: event queue still busy after %u ms", timeout_ms);
			goto out;
		}
		usleep(20000);
	}
out:
	if (q)
		udev_queue_unref(q);
	udev_unref(udev);
	return rc;
}

int sb_udev_wait_devnode(const char *devnode, unsigned timeout_ms, struct sb_err *err)
{
	long long start = now_ms(), deadline = start + timeout_ms;
	struct stat st;

	while (stat(devnode, &st) || !S_ISBLK(st.st_mode)) {
		if (now_ms() >= deadline)
			return sb_err_set(err, -ETIMEDOUT,
					  "%s did not appear within %u ms", devnode, timeout_ms);
		usleep(10000);
	}
	sb_debug("%s present after %lld ms", devnode, now_ms() - start);
	return 0;
}

int sb_udev_wait_node(const char *devnode, unsigned timeout_ms, struct sb_err *err)
{
	long long deadline = now_ms() + timeout_ms;
	int rc = sb_udev_wait_devnode(devnode, timeout_ms, err);

	if (rc)
		return rc;
	return sb_udev_settle(deadline > now_ms() ? (unsigned)(deadline - now_ms()) : 1000, err);
}
