/* The machine a result was measured on. Inside the throwaway
 * user-mode-linux kernel uname().machine is the host's ("x86_64", checked
 * with scripts/uml-run.sh -- uname -m), not "um"; what gives UML away is
 * /proc/cpuinfo ("vendor_id : User Mode Linux", "model name : UML"). */
#include "report/results.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>

/* Value of the first "key<spaces>: value" line in /proc/cpuinfo. */
static int cpuinfo_get(const char *key, char *buf, size_t len)
{
	char line[512];
	size_t klen = strlen(key);
	FILE *f = fopen("/proc/cpuinfo", "re");
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		char *p, *colon;

		if (strncmp(line, key, klen))
			continue;
		p = line + klen;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != ':')
			continue;
		colon = p + 1;
		while (*colon == ' ')
			colon++;
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(buf, len, "%s", colon);
		found = 1;
	}
	fclose(f);
	return found;
}

/* Inside the throwaway kernel only UML's own view is visible ("UML", its
 * memory, 1 CPU); the host side passed the machine it runs on as SB_OUTER_*
 * (src/sandbox/job.c). */
static struct json_object *outer_host(void)
{
	static const char *const str[][2] = {
		{ "SB_OUTER_HOSTNAME", "hostname" }, { "SB_OUTER_CPU_MODEL", "cpu_model" },
		{ "SB_OUTER_KERNEL", "kernel" }, { "SB_OUTER_MACHINE", "machine" },
	};
	struct json_object *o;
	const char *v;
	unsigned i;

	if (!getenv("SB_OUTER_KERNEL"))
		return NULL;
	o = json_object_new_object();
	for (i = 0; i < sizeof(str) / sizeof(str[0]); i++)
		if ((v = getenv(str[i][0])))
			json_object_object_add(o, str[i][1], json_object_new_string(v));
	if ((v = getenv("SB_OUTER_CORES")))
		json_object_object_add(o, "cores", json_object_new_int64(strtoll(v, NULL, 10)));
	if ((v = getenv("SB_OUTER_RAM_BYTES")))
		json_object_object_add(o, "ram_bytes", json_object_new_int64(strtoll(v, NULL, 10)));
	/* touched once before the boot (src/sandbox/memory.c) */
	if ((v = getenv("SB_OUTER_MEM_TOUCHED_BYTES")))
		json_object_object_add(o, "memory_touched_bytes", json_object_new_int64(strtoll(v, NULL, 10)));
	if ((v = getenv("SB_OUTER_MEM_TOUCHED_SECONDS")))
		json_object_object_add(o, "memory_touched_seconds", json_object_new_double(strtod(v, NULL)));
	return o;
}

/* The device path in words: what the members of a stack are. */
static const char *device_path(bool uml)
{
	if (uml && getenv("SB_UBD_MEMBERS"))
		return "members are UML block devices (ubd) without discard, backed by preallocated files "
		       "on the outer host's filesystem; a loop device with direct I/O on each where a stack asks for "
		       "other than 512-byte sectors";
	if (uml)
		return "members are loop devices on files of the outer host's filesystem seen through "
		       "hostfs (UML): slower and noisier than disks";
	return "members are this kernel's loop devices on files, or the stack's disks";
}

int sb_host_info(struct json_object **out, struct sb_err *err)
{
	struct json_object *outer;
	struct json_object *h;
	struct utsname u;
	struct sysinfo si;
	char host[256] = "", model[256] = "", vendor[256] = "";
	const char *label;
	long cores;
	int uml;

	if (uname(&u) < 0)
		return sb_err_sys(err, -errno, "uname");
	if (gethostname(host, sizeof(host) - 1) < 0)
		snprintf(host, sizeof(host), "%s", u.nodename);
	cpuinfo_get("vendor_id", vendor, sizeof(vendor));
	if (!cpuinfo_get("model name", model, sizeof(model)) &&
	    !cpuinfo_get("cpu model", model, sizeof(model)) &&   /* mips */
	    !cpuinfo_get("Hardware", model, sizeof(model)) &&    /* older arm */
	    !cpuinfo_get("Processor", model, sizeof(model)))
		snprintf(model, sizeof(model), "%s", u.machine);
	uml = !strcmp(u.machine, "um") || !strcmp(vendor, "User Mode Linux") ||
	      !strcmp(model, "UML");
	cores = sysconf(_SC_NPROCESSORS_ONLN);

	h = json_object_new_object();
	json_object_object_add(h, "hostname", json_object_new_string(host));
	/* Which machine of a fleet: many hosts share a hostname (localhost,
	 * cloned images), the inventory name does not. */
	label = getenv("STACKBENCH_HOST_LABEL");
	if (label && *label)
		json_object_object_add(h, "label", json_object_new_string(label));
	json_object_object_add(h, "kernel", json_object_new_string(u.release));
	json_object_object_add(h, "kernel_build", json_object_new_string(u.version));
	json_object_object_add(h, "machine", json_object_new_string(u.machine));
	json_object_object_add(h, "sandbox", json_object_new_boolean(uml));
	if (uml)   /* the README promises it: which throwaway kernel */
		json_object_object_add(h, "sandbox_kind", json_object_new_string("user-mode-linux"));
	json_object_object_add(h, "cpu_model", json_object_new_string(uml ? "UML (user-mode-linux guest)" : model));
	json_object_object_add(h, "cores", json_object_new_int64(cores > 0 ? cores : 0));
	if (sysinfo(&si) == 0)
		json_object_object_add(h, "ram_bytes",
				       json_object_new_int64((int64_t)si.totalram * (int64_t)si.mem_unit));
	json_object_object_add(h, "device_path", json_object_new_string(device_path(uml)));
	if (uml && (outer = outer_host()))
		json_object_object_add(h, "outer", outer);
	*out = h;
	return 0;
}
