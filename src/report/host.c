/* The machine a result was measured on. Inside the throwaway
 * user-mode-linux kernel uname().machine is the host's ("x86_64", checked
 * with scripts/uml-run.sh -- uname -m), not "um"; what gives UML away is
 * /proc/cpuinfo ("vendor_id : User Mode Linux", "model name : UML"). */
#include "report/results.h"

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

int sb_host_info(struct json_object **out, struct sb_err *err)
{
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
	*out = h;
	return 0;
}
