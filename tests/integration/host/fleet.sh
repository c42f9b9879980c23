#!/bin/bash
# stackbench fleet (issue 15) with real ssh and real Ansible on one machine:
# three private sshd instances (throwaway host and client keys, their own
# sshd_config, on 127.0.0.2/.3/.4 - loopback, never an address that leaves
# the machine), an inventory of the three, each "host" with its own
# STACKBENCH_STATE_DIR, loop and results directories under its scratch
# directory. Five ansible-playbook runs (each cell a small stack: 16 MiB,
# bench.runtime 1 s, no per-layer pass). Checks:
#  1. fleet --each of two small stacks (one loop -> ext4): six rows with a
#     host column, six results files fetched, each labelled with its host,
#     every host left without loops, mounts, state or scratch files;
#  2. the same again: every cell already fetched, nothing runs, same rows;
#  3. one host's sshd stopped and another's own stackbench_set breaking its
#     build, in one run: the third host's row, a failure line naming the
#     host that was down (unreachable) and one with stackbench's error for
#     the failed build, exit 6 (partial), every host clean;
#     the same command with both hosts fixed runs those two cells only;
#  4. fleet --spread of a four-stack matrix plus a stack file named with
#     {{ lookup('pipe', ...) }}, into a results dir named with one, over the
#     three hosts: each stack exactly once, on more than one host; nothing
#     is templated (no lookup ran), the odd cell runs under its name; a
#     symlink at the log's name is replaced, not written through; a '$' in
#     a path: exit 2 before Ansible;
#  5. --rerun runs cells already fetched (all hosts down: 3 failure lines,
#     exit 6, the earlier rows stand).
# Host h2 gets stackbench as a .deb, copied over by the playbook
# (stackbench_deb) and unpacked into its scratch directory
# (stackbench_deb_root) rather than installed: the three "hosts" are this
# one machine, whose /usr a test must not change. By default that .deb is
# made here in a second with dpkg-deb from the build tree's binary (what
# this test checks is the playbook's .deb path; building the real package
# is deb_package.sh's test); SB_FLEET_DEB=build builds it with
# dpkg-buildpackage from a copy of the tree (1-3 minutes more),
# SB_FLEET_DEB=FILE uses a .deb built already, SB_FLEET_DEB=none gives all
# three hosts the build tree's binary (stackbench_binary), as h3 and h4 have.
# Needs root, ansible, openssh-server. Measured only on the shared, loaded
# 2-core machine: 265 s at load average 5-6, 318-393 s at 7-15 (with seven
# playbook runs and the full .deb: 1005 s at load 6-15); not yet timed quiet.
set -u
. "$(dirname "$0")/../lib.sh"
sb_host_test fleet
for t in ansible-playbook ansible-inventory ssh-keygen ssh; do
	command -v "$t" >/dev/null || { echo "SKIP: $t not installed (scripts/install-deps.sh)"; FAILED=77; exit; }
done
[ -x /usr/sbin/sshd ] || { echo "SKIP: no /usr/sbin/sshd (apt-get install openssh-server)"; FAILED=77; exit; }
[ -x "$SB" ] || { fail "$SB not built"; exit; }
SB=$(readlink -f "$SB")
made_run_sshd=
hosts=(h2 h3 h4)
addr() { echo "127.0.0.${1#h}"; }

# A host going down: its listener and its sessions (Ansible keeps a
# ControlPersist connection open, whose sshd child would outlive the
# listener) - the processes this test started, by pid.
stop_sshd() {
	local pid kids
	[ -f "$TMP/$1/our.pid" ] || return 0
	pid=$(cat "$TMP/$1/our.pid")
	kids=$(ps -o pid= --ppid "$pid")
	kill "$pid" $kids 2>/dev/null
	wait "$pid" 2>/dev/null
	rm -f "$TMP/$1/our.pid"
}
sb_cleanup_hook() {
	local h
	for h in "${hosts[@]}"; do
		stop_sshd "$h"
		[ -d "$TMP/$h/work/state" ] && STACKBENCH_STATE_DIR=$TMP/$h/work/state "$SB" teardown --all >/dev/null 2>&1
	done
	findmnt -rn -o TARGET | grep "^$TMP/" | sort -r | while read -r m; do umount "$m"; done
	[ -n "$made_run_sshd" ] && rmdir /run/sshd 2>/dev/null
	return 0
}

# --- the .deb ------------------------------------------------------------------
debpid=
deb=
case "${SB_FLEET_DEB:-}" in
none|build) ;;
?*) deb=$(readlink -f "$SB_FLEET_DEB"); [ -f "$deb" ] || { fail "SB_FLEET_DEB=$SB_FLEET_DEB: no such file"; exit; } ;;
esac
if [ "${SB_FLEET_DEB:-}" = build ]; then
	command -v dpkg-buildpackage >/dev/null && command -v dh >/dev/null ||
		{ fail "SB_FLEET_DEB=build needs dpkg-buildpackage and dh (scripts/install-deps.sh)"; exit; }
	mkdir -p "$TMP/deb/stackbench-0.1.0"
	(cd "$SB_ROOT" && git ls-files -z -co --exclude-standard | xargs -0 cp -a --parents -t "$TMP/deb/stackbench-0.1.0") &&
	(cd "$TMP/deb/stackbench-0.1.0" && DEB_BUILD_OPTIONS="nocheck parallel=2" dpkg-buildpackage -us -uc -b) \
		> "$TMP/deb/build.log" 2>&1 &
	debpid=$!
elif [ -z "${SB_FLEET_DEB:-}" ] && command -v dpkg-deb >/dev/null; then
	# the build tree's binary as a .deb: what the playbook copies, unpacks and runs
	mkdir -p "$TMP/deb/root/DEBIAN" "$TMP/deb/root/usr/bin"
	cp "$SB" "$TMP/deb/root/usr/bin/stackbench"
	printf 'Package: stackbench\nVersion: 0.0.0-fleettest\nArchitecture: %s\nMaintainer: tests <t@localhost>\nDescription: fleet.sh test package\n' \
		"$(dpkg --print-architecture)" > "$TMP/deb/root/DEBIAN/control"
	dpkg-deb --root-owner-group -b "$TMP/deb/root" "$TMP/deb/stackbench_0.0.0-fleettest.deb" > "$TMP/deb/build.log" 2>&1 &&
		deb=$TMP/deb/stackbench_0.0.0-fleettest.deb || { fail "dpkg-deb: $(cat "$TMP/deb/build.log")"; exit; }
fi

# --- three sshds ---------------------------------------------------------------
[ -d /run/sshd ] || { mkdir -p /run/sshd && made_run_sshd=1; }   # sshd's privsep dir
ssh-keygen -q -t ed25519 -N '' -f "$TMP/client" || { fail "ssh-keygen"; exit; }
port=$((20000 + RANDOM % 30000))
start_sshd() {
	local h=$1 d=$TMP/$1
	mkdir -p "$d"
	[ -f "$d/hostkey" ] || ssh-keygen -q -t ed25519 -N '' -f "$d/hostkey" || return 1
	cat > "$d/sshd_config" <<EOF
Port $port
ListenAddress $(addr "$h")
HostKey $d/hostkey
PidFile none
AuthorizedKeysFile $TMP/client.pub
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
EOF
	# -D: not a daemon, so $! is its pid (it may unlink its PidFile itself)
	: > "$d/sshd.log"
	/usr/sbin/sshd -D -f "$d/sshd_config" -E "$d/sshd.log" &
	echo $! > "$d/our.pid"
	for _ in $(seq 50); do grep -q 'Server listening' "$d/sshd.log" && return 0; sleep 0.1; done
	return 1
}
for h in "${hosts[@]}"; do
	start_sshd "$h" || { fail "sshd for $h did not start: $(tail -3 "$TMP/$h/sshd.log")"; exit; }
done

cat > "$TMP/inventory.yml" <<EOF
all:
  vars:
    ansible_user: root
    ansible_port: $port
    ansible_ssh_private_key_file: $TMP/client
    ansible_ssh_common_args: "-o UserKnownHostsFile=$TMP/known_hosts -o StrictHostKeyChecking=no -o IdentitiesOnly=yes -o ConnectTimeout=5"
    ansible_python_interpreter: /usr/bin/python3
    stackbench_become: false
    stackbench_binary: $SB
    stackbench_set: [bench.size=16MiB, devices.loop.size=64MiB, bench.runtime=1s, bench.per_layer=false]
  hosts:
EOF
if [ -n "$debpid" ]; then
	t0=$(date +%s)
	wait "$debpid" && deb=$(ls "$TMP"/deb/stackbench_*.deb 2>/dev/null | head -1)
	[ -n "$deb" ] && echo "the .deb: built in $(( $(date +%s) - t0 )) s more after the sshds were up" ||
		{ fail "dpkg-buildpackage: $(tail -20 "$TMP/deb/build.log")"; exit; }
fi
for h in "${hosts[@]}"; do
	extra=
	[ "$h" = h2 ] && [ -n "$deb" ] && extra="stackbench_deb: $deb, stackbench_deb_root: $TMP/h2/work/pkg, "
	echo "    $h: {${extra}ansible_host: $(addr "$h"), stackbench_workdir: $TMP/$h/work}" >> "$TMP/inventory.yml"
done
export ANSIBLE_HOME=$TMP/ansible-home ANSIBLE_LOCAL_TEMP=$TMP/ansible-tmp
export ANSIBLE_SSH_CONTROL_PATH_DIR=$TMP/cp
mkdir -p "$TMP/stacks"
cp "$SB_ROOT/tests/stacks/plain.yml" "$TMP/stacks/plain.yml"
sed 's/^name: plain$/name: plain-b/' "$SB_ROOT/tests/stacks/plain.yml" > "$TMP/stacks/plain-b.yml"
cat > "$TMP/stacks/mx.yml" <<'EOF'
name: mx
devices:
  loop: {count: 1, size: 64MiB}
fs: {type: ext4, block_size: 4096}
bench: {suites: [quick]}
matrix:
  fs.block_size: [2048, 4096]
  bench.fsync: [true, false]
EOF
cd "$TMP" || exit

# 0. No Ansible on PATH: said at once (exec's own error), with what to install.
PATH=$TMP/no-such-dir "$SB" fleet -i inventory.yml --results res0 stacks/plain.yml > none.out 2> none.err
rc=$?
[ $rc -eq 1 ] && grep -q "fleet: cannot run ansible-inventory: No such file or directory; is Ansible installed?" none.err &&
	ok "no ansible-inventory on PATH: exit 1, said so" ||
	fail "no ansible-inventory on PATH: exit $rc: $(cat none.err)"

# Nothing of stackbench left on any host: no loop device on its files, no
# mount under its scratch directory, no scratch directory (state files).
check_clean() {
	local h leak
	for h in "${hosts[@]}"; do
		leak=$(sb_loop_leaks "$TMP/$h/")
		[ -z "$leak" ] || fail "$1: $h left loop devices: $leak"
		! findmnt -rn -o TARGET | grep -q "^$TMP/$h/" || fail "$1: $h left mounts"
		[ ! -e "$TMP/$h/work" ] || fail "$1: $h left $(find "$TMP/$h/work" | head -5)"
	done
}
rows() { grep -cE "^$1 +h[234] " "$2"; }

# --- 1. --each: 2 stacks x 3 hosts ------------------------------------------------
t0=$(date +%s)
"$SB" fleet -i inventory.yml --each --results res1 stacks/plain.yml stacks/plain-b.yml > each.out 2> each.err
rc=$?
echo "fleet --each: exit $rc in $(( $(date +%s) - t0 )) s"
[ $rc -eq 0 ] || fail "fleet --each exit $rc: $(tail -5 each.err) $(tail -20 res1/fleet-ansible.log)"
grep -qE '^Stack +host ' each.out || fail "no host column: $(cat each.out)"
n=$(( $(rows plain each.out) + $(rows plain-b each.out) ))
[ "$n" -eq 6 ] || fail "--each: $n rows, not 6: $(cat each.out)"
n=$(find res1 -name '*.json' | wc -l)
[ "$n" -eq 6 ] || fail "--each: $n results files fetched, not 6: $(find res1)"
for h in "${hosts[@]}"; do
	n=$(grep -l "\"label\": \"$h\"" res1/$h/*.json 2>/dev/null | wc -l)
	[ "$n" -eq 2 ] || fail "res1/$h: $n results files labelled $h, not 2"
done
if [ -n "$deb" ]; then
	grep -A3 'unpack the .deb into stackbench_deb_root' res1/fleet-ansible.log | grep -q '^changed: \[h2\]' ||
		fail "h2 did not get the .deb: $(grep -A3 'unpacked' res1/fleet-ansible.log)"
fi
grep -q "^fleet: h4: 2/2 done" each.err && grep -qE "^h4 +2/2 +\(finished\)" each.err || fail "no progress: $(head -20 each.err)"
check_clean "--each"
"$SB" compare --pivot host res1/h2 res1/h3 res1/h4 > pivot.out 2>&1 ||
	fail "compare --pivot host: $(cat pivot.out)"
head -1 pivot.out | grep -q '@ h2.*@ h3.*@ h4' && [ "$(grep -cE '^plain(-b)? ' pivot.out)" -eq 2 ] ||
	fail "compare --pivot host: not stacks x hosts: $(cat pivot.out)"

# --- 2. again: every cell fetched already, nothing runs ---------------------------
"$SB" fleet -i inventory.yml --each --results res1 stacks/plain.yml stacks/plain-b.yml > again.out 2> again.err
rc=$?
[ $rc -eq 0 ] && grep -q '6 stack x host cells already fetched' again.err ||
	fail "re-run: exit $rc, $(cat again.err)"
[ "$(find res1 -name '*.json' | wc -l)" -eq 6 ] || fail "re-run fetched more: $(find res1)"

# --- 3. one host down, one host's build failing (its own --set): one run ------
# h4's sshd is stopped, h3's stackbench_set makes its loop device too small:
# h2's row only, a failure line for each of the others, exit 6 (partial)
stop_sshd h4
sed 's|^    h3: {|    h3: {stackbench_set: [devices.loop.size=1MiB], |' inventory.yml > inventory-bad.yml
t0=$(date +%s)
"$SB" fleet -i inventory-bad.yml --results res2 stacks/plain.yml > down.out 2> down.err
rc=$?
echo "fleet with h4 down and h3's build failing: exit $rc in $(( $(date +%s) - t0 )) s"
[ $rc -eq 6 ] || fail "one host down, one build failing: exit $rc, not 6: $(tail -5 down.err)"
# one row (a one-host table has no host column) and h2's results file only
[ "$(grep -cE '^plain( +h[234])? ' down.out)" -eq 1 ] && [ "$(find res2 -name '*.json' | wc -l)" -eq 1 ] &&
	[ -n "$(ls res2/h2/*.json 2>/dev/null)" ] || fail "one host down, one build failing: not h2's row only: $(cat down.out; find res2)"
grep -q '^failed: host h4: unreachable' down.out || fail "no failure line for h4: $(cat down.out)"
grep -q '^failed: plain on h3: .*stackbench' down.out || fail "no failure line for plain on h3: $(cat down.out)"
grep -q partial down.err || fail "the error does not say partial: $(tail -3 down.err)"
check_clean "one host down, one build failing"
# the same command once both are fixed: only the two cells that failed run
start_sshd h4 || fail "sshd h4 did not restart"
t0=$(date +%s)
"$SB" fleet -i inventory.yml --results res2 stacks/plain.yml > retry.out 2> retry.err
rc=$?
echo "fleet retry of the two failed cells: exit $rc in $(( $(date +%s) - t0 )) s"
[ $rc -eq 0 ] && grep -q '1 stack x host cells already fetched' retry.err && grep -q '2 stacks on 3 hosts' retry.err ||
	fail "retry after the failures: exit $rc: $(cat retry.err)"
[ "$(grep -cE '^plain +h[234] ' retry.out)" -eq 3 ] || fail "retry: not 3 rows: $(cat retry.out)"

# --- 4. --spread of a four-stack matrix and a stack named with {{ }} ------------
# Names are data to Ansible, never templates: a stack file and a results
# directory named with Jinja that would run a command on the controller.
# The playbook is a copy in $TMP, so a lookup that did run (relative path:
# the playbook's directory) would land in $TMP, not in the source tree.
cp -r "$SB_ROOT/ansible" "$TMP/ansible-copy"
evil="{{ lookup('pipe','touch PWNED-f') }} (x).yml"
sed 's/^name: plain$/name: plain-odd/' "$SB_ROOT/tests/stacks/plain.yml" > "stacks/$evil"
res3="res-{{ lookup('pipe','touch PWNED-r') }}"
mkdir -p "$res3" && echo "not the log" > victim && ln -s ../victim "$res3/fleet-ansible.log"
t0=$(date +%s)
STACKBENCH_ANSIBLE_DIR=$TMP/ansible-copy "$SB" fleet -i inventory.yml --spread --results "$res3" \
	stacks/mx.yml "stacks/$evil" > spread.out 2> spread.err
rc=$?
echo "fleet --spread: exit $rc in $(( $(date +%s) - t0 )) s"
[ $rc -eq 0 ] || fail "--spread exit $rc: $(tail -5 spread.err)"
for s in mx-2048-true mx-2048-false mx-4096-true mx-4096-false plain-odd; do
	n=$(grep -l "\"name\": \"$s\"" "$res3"/*/*.json 2>/dev/null | wc -l)
	[ "$n" -eq 1 ] || fail "--spread: $s ran $n times, not once"
	[ "$(grep -cE "^$s +h[234] " spread.out)" -eq 1 ] || fail "--spread: $s not one row: $(cat spread.out)"
done
n=$(ls -d "$res3"/h* 2>/dev/null | wc -l)
[ "$n" -eq 3 ] || fail "--spread: results from $n hosts, not 3: $(find "$res3")"
pwned=$(find "$TMP" "$SB_ROOT/ansible" -name 'PWNED-*' 2>/dev/null)
[ -z "$pwned" ] || fail "Ansible templated a name: it ran the lookup ($pwned)"
rm -f $pwned
grep -qF "(item=sb-cell $evil plain-odd)" "$res3/fleet-ansible.log" 2>/dev/null ||
	fail "the file name did not reach the host intact: $(grep sb-cell "$res3/fleet-ansible.log")"
[ "$(cat victim)" = "not the log" ] && [ -f "$res3/fleet-ansible.log" ] && [ ! -L "$res3/fleet-ansible.log" ] ||
	fail "fleet wrote its log through a symlink: victim says $(head -c 80 victim)"
check_clean "--spread"
cp stacks/plain.yml 'stacks/$HOME.yml'
"$SB" fleet -i inventory.yml --results res5 'stacks/$HOME.yml' > dollar.out 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "cannot be handed to Ansible" dollar.out || fail "a \$ in a path: exit $rc: $(cat dollar.out)"

# --- 5. --rerun runs fetched cells again (every host down now: all fail fast) -----
for h in "${hosts[@]}"; do stop_sshd "$h"; done
"$SB" fleet -i inventory.yml --rerun --results res2 stacks/plain.yml > rerun.out 2> rerun.err
rc=$?
[ $rc -eq 6 ] && ! grep -q 'already fetched' rerun.err && grep -q '3 stacks on 3 hosts' rerun.err &&
	[ "$(grep -c '^failed: host h[234]: unreachable' rerun.out)" -eq 3 ] ||
	fail "--rerun with every host down: exit $rc: $(cat rerun.out rerun.err)"
[ $FAILED -eq 0 ] && echo "ok: fleet --each (6 rows), re-run skipped, one host down and one build failing (1 row, exit 6), the retry (those 2 cells), --spread (5 stacks once each, {{ }} names not templated), --rerun"
exit
