/* What `stackbench fleet` reads in ansible-playbook's output: a host's odd
 * reply ("stderr": null, missing keys, wrong types, not JSON) marks that
 * host or cell failed with a reason and crashes nothing; a cell whose file
 * name holds spaces, quotes and braces is still matched by its label. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cmd/fleet.h"

#define ODD "{{ lookup('pipe','touch PWNED-x') }} (b).yml"

static struct fleet_host hosts[2];
static struct fleet_cell cells[3];
static struct fleet f;

static int setup(void **state)
{
	static char *names[2] = { "h1", "h2" };
	static char *stacks[3] = { "plain", "plain", "mx-1" };
	unsigned i;

	(void)state;
	memset(hosts, 0, sizeof(hosts));
	memset(cells, 0, sizeof(cells));
	for (i = 0; i < 2; i++)
		hosts[i].name = names[i];
	for (i = 0; i < 3; i++) {
		cells[i].base = i == 2 ? ODD : "plain.yml";
		cells[i].stack = stacks[i];
		cells[i].host = i == 0 ? 0 : 1;
	}
	f = (struct fleet){ .hosts = hosts, .nhosts = 2, .cells = cells, .ncells = 3 };
	return 0;
}

static void feed(const char *line)
{
	char buf[1024];

	snprintf(buf, sizeof(buf), "%s", line);
	sb_fleet_line(&f, buf);
}

/* Each odd reply: the host failed, with a sentence, no crash. */
static void test_odd_host_replies(void **state)
{
	static const char *odd[] = {
		"fatal: [h1]: FAILED! => {\"changed\": false, \"stderr\": null}",
		"fatal: [h1]: FAILED! => {\"stderr\": null, \"msg\": null}",
		"fatal: [h1]: FAILED! => {\"stderr\": 5, \"msg\": [\"a\"]}",
		"fatal: [h1]: FAILED! => {\"stderr\": {\"x\": 1}}",
		"fatal: [h1]: FAILED! => {}",
		"fatal: [h1]: FAILED! => [null, 1]",
		"fatal: [h1]: FAILED! => null",
		"fatal: [h1]: FAILED! => \"text\"",
		"fatal: [h1]: FAILED! => {\"stderr\": \"\\n \\n\"",
		"fatal: [h1]: FAILED! => {\"stderr\": \"  \\n\\n\"}",
		"fatal: [h1]: FAILED! =>",
	};
	unsigned i;

	for (i = 0; i < sizeof(odd) / sizeof(odd[0]); i++) {
		setup(state);
		feed(odd[i]);
		assert_true(hosts[0].failed);
		assert_false(hosts[1].failed);
		assert_non_null(strstr(hosts[0].why, "fleet-ansible.log"));
	}
	/* with stderr null, a string msg is the reason */
	setup(state);
	feed("fatal: [h1]: FAILED! => {\"stderr\": null, \"msg\": \"no space left\"}");
	assert_string_equal(hosts[0].why, "no space left");
}

/* A failed cell with an odd reply: that cell failed, with a reason; the
 * host's other cell still counts as done. */
static void test_odd_cell_reply(void **state)
{
	(void)state;
	setup(state);
	feed("changed: [h2] => (item=sb-cell plain.yml plain)");
	feed("failed: [h2] (item=sb-cell " ODD " mx-1) => {\"stderr\": null, \"rc\": \"x\"}");
	assert_int_equal(cells[1].state, CELL_DONE);
	assert_int_equal(cells[2].state, CELL_FAILED);
	assert_non_null(strstr(cells[2].why, "fleet-ansible.log"));
	assert_false(hosts[1].failed);
}

/* The label of a file whose name holds spaces, quotes, braces and ')'. */
static void test_label_with_odd_file_name(void **state)
{
	(void)state;
	setup(state);
	feed("changed: [h2] => (item=sb-cell " ODD " mx-1)");
	assert_int_equal(cells[2].state, CELL_DONE);
	assert_int_equal(cells[1].state, CELL_PLANNED);
	/* not another host's cell, not a prefix of a label */
	feed("changed: [h1] => (item=sb-cell " ODD " mx-1)");
	feed("changed: [h2] => (item=sb-cell plain.yml plai)");
	assert_int_equal(cells[0].state, CELL_PLANNED);
	assert_int_equal(cells[1].state, CELL_PLANNED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_odd_host_replies),
		cmocka_unit_test(test_odd_cell_reply),
		cmocka_unit_test(test_label_with_odd_file_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
