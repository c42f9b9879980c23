#include "sys/udev.h"
#include "util/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <libudev.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "util/log.h"

bool sb_udev_running(void)
{
	return access("/run/udev/control", F_OK) == 0;
}

int sb_udev_settle(unsigned timeout_ms, struct sb_err *err)
{
	struct udev_queue *q = NULL;
	struct udev *udev = NULL;
	uint64_t deadline = sb_clock_ms() + timeout_ms;
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
		if (sb_clock_ms() >= deadline) {
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
	uint64_t start = sb_clock_ms(), deadline = start + timeout_ms;
	struct stat st;

	while (stat(devnode, &st) || !S_ISBLK(st.st_mode)) {
		if (sb_clock_ms() >= deadline)
			return sb_err_set(err, -ETIMEDOUT,
					  "%s did not appear within %u ms", devnode, timeout_ms);
		usleep(10000);
	}
	sb_debug("%s present after %llu ms", devnode, (unsigned long long)(sb_clock_ms() - start));
	return 0;
}

int sb_udev_wait_node(const char *devnode, unsigned timeout_ms, struct sb_err *err)
{
	uint64_t deadline = sb_clock_ms() + timeout_ms;
	int rc = sb_udev_wait_devnode(devnode, timeout_ms, err);

	if (rc)
		return rc;
	return sb_udev_settle(deadline > sb_clock_ms() ? (unsigned)(deadline - sb_clock_ms()) : 1000, err);
}

/* Ask the kernel for a "change" uevent of devnode (what `udevadm trigger
 * --action=change` writes), the monitor already listening. */
static int trigger_change(const char *devnode, dev_t *devnum, struct sb_err *err)
{
	char path[96];
	struct stat st;
	int fd;

	if (stat(devnode, &st) || !S_ISBLK(st.st_mode))
		return sb_err_sys(err, -ENODEV, "%s is not a block device", devnode);
	*devnum = st.st_rdev;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/uevent", major(st.st_rdev), minor(st.st_rdev));
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return sb_err_sys(err, -errno, "cannot open %s", path);
	if (write(fd, "change", 6) != 6) {
		int e = -errno;

		close(fd);
		return sb_err_sys(err, e, "cannot write %s", path);
	}
	close(fd);
	return 0;
}

/* Wait on mon for udev's processed "change" of devnum, until deadline. */
static int wait_change(struct udev_monitor *mon, dev_t devnum, uint64_t deadline)
{
	struct pollfd p = { .fd = udev_monitor_get_fd(mon), .events = POLLIN };

	for (;;) {
		uint64_t now = sb_clock_ms();
		struct udev_device *d;
		bool match;

		if (now >= deadline)
			return -ETIMEDOUT;
		if (poll(&p, 1, (int)(deadline - now)) <= 0)
			continue;
		d = udev_monitor_receive_device(mon);
		if (!d)
			continue;
		match = udev_device_get_devnum(d) == devnum && udev_device_get_action(d) &&
			!strcmp(udev_device_get_action(d), "change");
		udev_device_unref(d);
		if (match)
			return 0;
	}
}

int sb_udev_reprobe(const char *devnode, unsigned timeout_ms, struct sb_err *err)
{
	uint64_t deadline = sb_clock_ms() + timeout_ms;
	struct udev_monitor *mon = NULL;
	struct udev *udev;
	dev_t devnum = 0;
	int rc;

	if (!sb_udev_running())
		return 0;
	udev = udev_new();
	if (!udev)
		return sb_err_set(err, -ENOMEM, "udev: cannot create a libudev context");
	mon = udev_monitor_new_from_netlink(udev, "udev");
	if (!mon || udev_monitor_filter_add_match_subsystem_devtype(mon, "block", NULL) < 0 ||
	    udev_monitor_enable_receiving(mon) < 0) {
		rc = sb_err_set(err, -EIO, "udev: cannot listen for udev's events");
		goto out;
	}
	rc = trigger_change(devnode, &devnum, err);
	if (rc == 0 && wait_change(mon, devnum, deadline) < 0)
		rc = sb_err_set(err, -ETIMEDOUT, "udev: no processed change event of %s within %u ms",
				devnode, timeout_ms);
out:
	if (mon)
		udev_monitor_unref(mon);
	udev_unref(udev);
	return rc;
}
