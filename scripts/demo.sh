#!/bin/bash
# README command 1: on a fresh Debian 12 machine, as root, build stackbench
# and run `stackbench build-and-test` on a stack (default: the Helios4 NAS's
# LUKS 4096 / CESA setup) end to end: packages are installed and the binary
# built first where needed. Any arguments go to build-and-test instead.
#   scripts/demo.sh [STACK.yml... and build-and-test options]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# Build output to stderr: stdout carries only stackbench's results.
if [ ! -f build/build.ninja ]; then
	meson setup build >&2
fi
ninja -C build >&2
[ $# -gt 0 ] || set -- stacks/luks4096-cesa.yml
exec build/stackbench build-and-test "$@"
