/* `stackbench job` and `bench --target` write wherever they are pointed.
 * On a block device, a write mode gets the checks a stack's disks get
 * (see safety.h): the target may be a partition (people benchmark one), but
 * it must not be mounted, swap, held by md/dm, open in another process,
 * the system disk, or carry a signature, and --destroy-data must name it.
 * Reads change nothing and stay free. */
#include "sys/safety.h"
#include "sys/safety_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <blkid.h>

/* Does the --destroy-data list name the device (by any path to it, or its
 * kernel name)? */
static bool names_dev(const char *list, dev_t dev, const char *kname)
{
	char buf[1024], *save = NULL, *tok;
	struct stat st;

	if (!list || strlen(list) >= sizeof(buf))
		return false;
	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
		if (!strcmp(tok, kname))
			return true;
		if (!stat(tok, &st) && S_ISBLK(st.st_mode) && st.st_rdev == dev)
			return true;
	}
	return false;
}

static int count_dir(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

/* Mounted or swap: the device itself or, for a whole disk, a partition. */
static int in_use(const char *t, const char *kname, dev_t dev, struct sb_err *err)
{
	char pnames[MAX_PARTS][64], where[512];
	dev_t devs[MAX_PARTS + 1];
	char *text;
	int np, idx;

	devs[0] = dev;
	np = sb_safety_partitions(SYSFS, kname, pnames, devs + 1, MAX_PARTS);
	text = sb_safety_read_text("/proc/self/mountinfo");
	if (!text)
		return sb_err_sys(err, -errno, "cannot read /proc/self/mountinfo");
	idx = sb_safety_mountinfo_find(text, devs, (unsigned)np + 1, where, sizeof(where));
	free(text);
	if (idx >= 0)
		return sb_err_set(err, -SB_EREFUSED, "--target %s: %s is mounted at %s; a write job would "
				  "destroy that filesystem (unmount it, or write to a file in it)",
				  t, idx ? pnames[idx - 1] : kname, where);
	text = sb_safety_read_text("/proc/swaps");
	idx = text ? sb_safety_swaps_find(text, devs, (unsigned)np + 1, where, sizeof(where)) : -1;
	free(text);
	if (idx >= 0)
		return sb_err_set(err, -SB_EREFUSED, "--target %s: %s is in use as swap (%s)", t,
				  idx ? pnames[idx - 1] : kname, where);
	return np;
}

static int probe_clean(const char *t, int fd, struct sb_err *err)
{
	const char *type = NULL;
	blkid_probe pr = blkid_new_probe();
	int rc;

	if (!pr || blkid_probe_set_device(pr, fd, 0, 0)) {
		if (pr)
			blkid_free_probe(pr);
		return sb_err_set(err, -EIO, "--target %s: libblkid cannot probe it", t);
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE);
	blkid_probe_enable_partitions(pr, 1);
	rc = blkid_do_safeprobe(pr);
	if (rc == 0 && blkid_probe_lookup_value(pr, "TYPE", &type, NULL))
		blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL);
	if (rc == 0 || rc == -2) {
		rc = sb_err_set(err, -SB_EREFUSED, "--target %s: holds %s %s; a write job would destroy it "
				"(erase it first with wipefs if it is really unwanted)", t,
				rc == -2 ? "several" : type ? type : "a", "signature");
	} else {
		rc = rc == 1 ? 0 : sb_err_set(err, -EIO, "--target %s: libblkid could not probe it", t);
	}
	blkid_free_probe(pr);
	return rc;
}

int sb_safety_check_target(const char *t, bool writes, const char *destroy_data, struct sb_err *err)
{
	char sysdir[PATH_MAX], p[PATH_MAX], who[256];
	const char *kname, *mp;
	dev_t devs[MAX_PARTS + 1];
	char pnames[MAX_PARTS][64];
	struct stat st;
	int np, fd, rc;

	if (stat(t, &st) || !S_ISBLK(st.st_mode) || !writes)
		return 0;
	if (!sb_safety_dev_sysdir(SYSFS, st.st_rdev, sysdir))
		return sb_err_set(err, -SB_EREFUSED, "--target %s: block device %u:%u has no entry in %s",
				  t, major(st.st_rdev), minor(st.st_rdev), SYSFS);
	kname = sb_safety_base(sysdir);
	if ((mp = sb_safety_root_disk_mount(st.st_rdev)))
		return sb_err_set(err, -SB_EREFUSED, "--target %s: %s holds the system's %s filesystem",
				  t, kname, mp);
	np = in_use(t, kname, st.st_rdev, err);
	if (np < 0)
		return np;
	sb_safety_pathf(p, "%s/holders", sysdir);
	if (count_dir(p) > 0)
		return sb_err_set(err, -SB_EREFUSED, "--target %s: %s is in use by md or device-mapper "
				  "(see %s)", t, kname, p);
	fd = open(t, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0)
		return errno == EBUSY
			? sb_err_set(err, -SB_EREFUSED, "--target %s: %s is claimed exclusively elsewhere "
				     "(mounted, md, device-mapper or another program)", t, kname)
			: sb_err_sys(err, -errno, "--target %s: cannot open it", t);
	devs[0] = st.st_rdev;
	np = sb_safety_partitions(SYSFS, kname, pnames, devs + 1, MAX_PARTS);
	rc = sb_safety_open_by(devs, (unsigned)np + 1, who, sizeof(who));
	if (rc > 0)
		rc = sb_err_set(err, -SB_EREFUSED, "--target %s: is open in another process: %s", t, who);
	if (!rc)
		rc = probe_clean(t, fd, err);
	close(fd);
	if (rc)
		return rc;
	if (!names_dev(destroy_data, st.st_rdev, kname))
		return sb_err_set(err, -SB_EREFUSED, "--target %s: a write job destroys the data on %s; pass "
				  "--destroy-data=%s to go on", t, kname, t);
	return 0;
}
