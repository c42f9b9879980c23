#!/bin/bash
# The host provisioner test (tests/integration/host/prov_plain.sh) run
# inside the throwaway user-mode-linux kernel, where udev is running: the
# udev settles and waits, loop direct I/O over hostfs and the detach
# confirmation get exercised there too. Run it from anywhere; outside the
# throwaway kernel it boots one (scripts/uml-run.sh) and runs itself inside.
#   tests/integration/uml/prov_plain.sh          (SB_BUILD_DIR=build by default)
set -u
src=$(cd "$(dirname "$0")/../../.." && pwd)
if ! grep -q "^vendor_id.*User Mode Linux" /proc/cpuinfo 2>/dev/null; then
	[ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; exit 77; }
	exec "$src/scripts/uml-run.sh" -- "$src/tests/integration/uml/prov_plain.sh" "$@"
fi
[ -e /run/udev/control ] || { echo "FAIL: udev is not running in the throwaway kernel"; exit 1; }
"$src/tests/integration/host/prov_plain.sh"; rc=$?
# nothing of ours may keep udev busy afterwards
udevadm settle --timeout=10 || { echo "FAIL: udev queue not empty after the tests"; rc=1; }
exit $rc
