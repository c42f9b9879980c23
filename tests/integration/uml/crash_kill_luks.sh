#!/bin/bash
# kill -9 at the LUKS steps (formatted; opened with the key held; mounted)
# and during build-and-test's benchmark, then teardown --all: nothing left.
# The second half of crash_kill_steps.sh (see there).
#   scripts/uml-run.sh -- tests/integration/uml/crash_kill_luks.sh [POINT...|bench]
SB_CRASH_SET=luks exec "$(dirname "$0")/crash_kill_steps.sh" "$@"
