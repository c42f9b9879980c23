#!/bin/bash
# kill -9 of `stackbench build` while one of the tools it runs is still at
# work (issue 12, finding 12). The tools (mdadm, lvm, mkfs) are children:
# SIGKILL of the build leaves them running, and one that finishes after
# `teardown --all` has looked creates an object nobody removes. Here `lvm`
# is wrapped (a PATH shim) so that lvcreate starts 8 s late (longer than a teardown takes): the build is
# killed inside that delay and `teardown --all` runs at once. It must wait
# for the build's tools to end (they carry STACKBENCH_BUILDER), then remove
# everything, the late LV included: when it returns, no tool of the build
# may still run and nothing may be left.
#   scripts/uml-run.sh -- tests/integration/uml/crash_kill_child.sh
set -u
. "$(dirname "$0")/layers_lib.sh"
crash_vars
shim=$(mktemp -d /tmp/sb-shim.XXXXXX)
real=$(command -v lvm) || { echo "SKIP: no lvm"; exit 77; }
export SB_SHIM_MARK=$shim/mark SB_SHIM_DONE=$shim/done
trap 'rm -rf "$shim"; cleanup; exit $?' EXIT

# libblockdev runs "lvm lvcreate ..." (or lvcreate) through $PATH
cat >"$shim/lvm" <<EOF
#!/bin/bash
case " \$* " in *" lvcreate "*) ;; *) exec $real "\$@" ;; esac
touch "\$SB_SHIM_MARK"
sleep 8
$real "\$@"
rc=\$?
touch "\$SB_SHIM_DONE"
exit \$rc
EOF
cat >"$shim/lvcreate" <<EOF
#!/bin/bash
exec "$shim/lvm" lvcreate "\$@"
EOF
chmod +x "$shim/lvm" "$shim/lvcreate"

PATH=$shim:$PATH "$SB" -vv build "${sets[@]}" "$lvmf" >"$state/.build.log" 2>&1 &
pid=$!
if ! sb_wait_until "$pid" 300 test -e "$SB_SHIM_MARK"; then
	bad "the build never reached lvcreate (is lvm not run through \$PATH?)"
	tail -5 "$state/.build.log" | sed 's/^/    | /'
	sb_reap 9 "$pid" 2>/dev/null
	exit 1
fi
sb_reap 9 "$pid" 2>/dev/null
ok "build killed while lvcreate was delayed"
out=$("$SB" -v teardown --all 2>&1); rc=$?
if [ -e "$SB_SHIM_DONE" ]; then
	ok "teardown --all waited for the build's lvcreate to end"
else
	bad "teardown --all returned while the build's lvcreate still ran"
fi
if [ $rc = 0 ]; then ok "teardown --all exit 0"
else bad "teardown --all exit $rc"; echo "$out" | sed 's/^/    | /'; fi
grep -q "waiting for" <<<"$out" && ok "it said it was waiting" || bad "no 'waiting for' message: $out"
# whatever the late lvcreate made must be gone too (and the shim may not
# outlive the test)
for ((i = 0; i < 150; i++)); do [ -e "$SB_SHIM_DONE" ] && break; sleep 0.1; done
sleep 1
assert_clean "kill -9 during lvcreate"
