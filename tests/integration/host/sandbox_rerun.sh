#!/bin/bash
# The throwaway-kernel runner, from the host: a command re-run inside it gets
# its arguments, cwd and environment, its stdout and stderr arrive here
# separately and byte for byte, its exit status comes back exactly; a stop
# request (SIGINT) ends it and leaves no process or file behind.
# Uses build/tests/unit/test_sandbox's probe mode (sb_sandbox_rerun on
# itself) and `stackbench --sandbox`.
set -uo pipefail
root=${SB_ROOT:?run me through tests/integration/run.sh}
bin=${STACKBENCH_BIN:?}
probe=$(dirname "$bin")/tests/unit/test_sandbox
dir=${SB_TEST_DIR:?}
export TMPDIR=$dir/tmp
export STACKBENCH_UML_MEM=256M
mkdir -p "$TMPDIR" "$dir/work dir"
errors=0
fail() { echo "FAIL: $*"; errors=$((errors + 1)); }
leftovers() {
	local p
	p=$(pgrep -f "uml_dir=$TMPDIR/" || true)
	[ -z "$p" ] || fail "UML processes left: $p"
	[ -z "$(ls -A "$TMPDIR")" ] || fail "files left in TMPDIR: $(ls -A "$TMPDIR")"
}
[ -x "$probe" ] || { echo "FAIL: $probe not built"; exit 1; }

# 1. Arguments, cwd, environment, stdout/stderr separation, exact bytes, exit code.
cd "$dir/work dir"
SB_QUOTE="it's \$HOME \"x\"" STACKBENCH_Y=y NOT_PASSED=1 \
	"$probe" rerun where cwd tty env=SB_QUOTE env=STACKBENCH_Y env=NOT_PASSED tricky "sp ace" \
	err=to-stderr exit=7 > "$dir/out" 2> "$dir/err"
rc=$?
cd "$dir"
[ $rc -eq 7 ] || fail "exit status $rc, expected 7 (stderr: $(cat "$dir/err"))"
printf '%s\n' "flag --in-sandbox" "flag --no-progress" "inside 1 uml 1 md 1 dm 1" \
	"cwd $dir/work dir" "tty out 0 err 0" "env SB_QUOTE=it's \$HOME \"x\"" "env STACKBENCH_Y=y" \
	"env NOT_PASSED=(unset)" > "$dir/want"
printf 'a\036\036sb-en\tb\r\n\036\036\036x\0y\n' >> "$dir/want"
printf '%s\n' "arg 'sp ace'" >> "$dir/want"
cmp "$dir/want" "$dir/out" || { fail "stdout differs:"; diff <(od -c "$dir/want") <(od -c "$dir/out"); }
[ "$(cat "$dir/err")" = "to-stderr" ] || fail "stderr is '$(cat "$dir/err")', expected 'to-stderr'"
leftovers
echo "rerun: args/cwd/env/stdout/stderr/exit ok"

# 2. stackbench --sandbox: same stdout and exit status as on the host, for a
# good and a bad stack file (validate; whatever state that command is in).
printf 'name: [unclosed\n' > "$dir/bad.yml"
for f in "$root/stacks/ext4.yml" "$dir/bad.yml"; do
	[ -e "$f" ] || { echo "skip $f (not in this tree yet)"; continue; }
	"$bin" validate "$f" > "$dir/host.out" 2> "$dir/host.err"
	hrc=$?
	"$bin" --sandbox validate "$f" > "$dir/uml.out" 2> "$dir/uml.err"
	urc=$?
	[ $hrc -eq $urc ] || fail "validate $f: exit $urc in the sandbox, $hrc on the host ($(cat "$dir/uml.err"))"
	cmp -s "$dir/host.out" "$dir/uml.out" || fail "validate $f: stdout differs in the sandbox"
	cmp -s "$dir/host.err" "$dir/uml.err" || fail "validate $f: stderr differs: $(diff "$dir/host.err" "$dir/uml.err")"
	echo "--sandbox validate $(basename "$f"): exit $urc as on the host"
done
leftovers

# 3. Ctrl-C: the command inside is asked to stop (SIGTERM) and the kernel
# halts; nothing is left.
"$probe" rerun started sleep > "$dir/int.out" 2> "$dir/int.err" &
pid=$!
for _ in $(seq 600); do
	grep -q started "$dir/int.out" 2>/dev/null && break
	kill -0 $pid 2>/dev/null || break
	sleep 0.5
done
grep -q started "$dir/int.out" || fail "the probe did not start in time"
t0=$(date +%s)
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 143 ] || fail "after SIGINT: exit $rc, expected 143 (SIGTERM inside): $(cat "$dir/int.err")"
[ $(( $(date +%s) - t0 )) -lt 60 ] || fail "stopping took more than 60 s"
leftovers
echo "interrupt: stopped with exit $rc in $(( $(date +%s) - t0 ))s"

# 4. Finding 8: a hostile environment variable name is not written into the
# job script (it would run as root inside); a kernel or init that another
# user could have replaced is not run.
env "SB_X;touch $dir/pwned;: =1" "$probe" rerun env=SB_QUOTE > "$dir/env.out" 2> "$dir/env.err"
rc=$?
[ $rc -eq 0 ] || fail "hostile env name: exit $rc: $(cat "$dir/env.err")"
[ ! -e "$dir/pwned" ] || fail "hostile env name: its command ran inside the sandbox"
grep -q "not passing the environment variable 'SB_X;touch" "$dir/env.err" ||
	fail "hostile env name: no warning: $(cat "$dir/env.err")"
leftovers
echo "env: a hostile name is dropped with a warning"
# uml_refused VAR WHAT RC MESSAGE: --sandbox with VAR=$dir/linux.uml exits
# RC saying MESSAGE.
uml_refused() {
	env "$1=$dir/linux.uml" "$bin" --sandbox validate "$root/stacks/ext4.yml" > /dev/null 2> "$dir/k.err"
	rc=$?
	[ $rc -eq "$3" ] || fail "$2 $1: exit $rc, expected $3"
	grep -q "$4" "$dir/k.err" || fail "$2 $1: $(cat "$dir/k.err")"
}
cp "$(command -v linux.uml)" "$dir/linux.uml"
chmod 0777 "$dir/linux.uml"
uml_refused STACKBENCH_UML_KERNEL world-writable 5 "refusing to run $dir/linux.uml as root: it is writable by everyone"
chmod 0755 "$dir/linux.uml"
chown nobody "$dir/linux.uml"
uml_refused STACKBENCH_UML_INIT "owned by nobody" 5 \
	"STACKBENCH_UML_INIT: refusing to run $dir/linux.uml as root: it is owned by uid"
rm -f "$dir/linux.uml"
echo "kernel/init: a replaceable one is refused (exit 5)"
# A kernel that cannot be executed: exec's own error, at once, nothing left.
printf 'not a kernel\n' > "$dir/linux.uml"
chmod 0755 "$dir/linux.uml"
uml_refused STACKBENCH_UML_KERNEL unexecutable 1 "sandbox: cannot run $dir/linux.uml: Exec format error"
rm -f "$dir/linux.uml"
leftovers
echo "kernel: an exec failure is reported as such (exit 1)"

# 5. Members stay preallocated: a discard of a whole member (as mkfs does) must not punch holes in its host file, or every build makes the
# preallocated files sparse again and the first benchmark after it pays the
# host's block allocation (the dd suite's slow first repetition).
mkdir -p "$dir/members"
"$probe" rerun-members 2 $((64 << 20)) "$dir/members" allocated="$dir/members" punch \
	allocated="$dir/members" > "$dir/m.out" 2> "$dir/m.err"
rc=$?
[ $rc -eq 0 ] || fail "members: exit $rc: $(cat "$dir/m.err")"
grep -q '^punch /dev/ubda: discard Operation not supported' "$dir/m.out" ||
	fail "members: a discard of /dev/ubda was not refused: $(grep '^punch' "$dir/m.out")"
want=$(printf 'allocated ubd0 100%%\nallocated ubd1 100%%\n')
got=$(grep '^allocated' "$dir/m.out")
[ "$got" = "$want"$'\n'"$want" ] ||
	fail "members: host files not fully allocated before and after the punch: $(tr '\n' ';' < "$dir/m.out")"
[ -z "$(ls -A "$dir/members")" ] || fail "members: files left in $dir/members: $(ls -A "$dir/members")"
leftovers
echo "members: preallocated, and a whole-device discard leaves them so"

exit $((errors > 0))
