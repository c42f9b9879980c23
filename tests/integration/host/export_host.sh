#!/bin/bash
# export on this (host) kernel, with ext4 on a loop device: the SSH cipher
# matrix (export.sshfs.cipher: [chacha20-poly1305@openssh.com, aes128-ctr])
# gives one client row each next to the local row, every client figure at
# most the link iperf3 measured in the same run (+5 %) and the local figure
# (+5 %), the results recording the cipher; the validation of the export
# section (FILE:LINE:COL, the allowed values); a protocol this kernel cannot
# serve is refused with the reason (nfs without nfsd); and nothing is left:
# no namespace, veth, daemon, client mount or run directory.
set -uo pipefail
root=${SB_ROOT:?run me through tests/integration/run.sh}
bin=${STACKBENCH_BIN:?}
dir=${SB_TEST_DIR:?}
state=${STACKBENCH_STATE_DIR:?}
errors=0
fail() { echo "FAIL: $*"; errors=$((errors + 1)); }
pass() { echo "ok: $*"; }
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; exit 77; }
for t in sshfs iperf3 ip tc /usr/sbin/sshd; do
	command -v "$t" >/dev/null || { echo "SKIP: $t missing (scripts/install-deps.sh)"; exit 77; }
done
[ -e /dev/fuse ] || { echo "SKIP: no /dev/fuse on this kernel"; exit 77; }
leftover_net() {
	local n
	for n in $(ip netns list 2>/dev/null | awk '{print $1}'); do
		case "$n" in sb-*) grep -qx "$n" "$dir/ns" 2>/dev/null && echo "netns: $n" ;; esac
	done
	pgrep -af "$state/" | sed 's/^/process: /'
	ls -d "$state"/export-* 2>/dev/null | sed 's/^/rundir: /'
	grep -F " $state/" /proc/self/mountinfo | sed 's/^/mount: /'
}
cat > "$dir/exh.yml" <<YML
name: exh
devices: {loop: {size: 192MiB, dir: $dir/loops}}
bench: {suites: [dd], size: 64MiB, per_layer: false}
export:
  protocol: sshfs
  link: {rate: 1gbit}
  sshfs:
    cipher: [chacha20-poly1305@openssh.com, aes128-ctr]
YML

# --- validation -----------------------------------------------------------
out=$("$bin" validate --set export.link.rate=1gbyte "$dir/exh.yml" 2>&1)
[[ "$out" == *"export.link.rate: '1gbyte' is not a rate"*"gbit"* ]] && pass "bad rate refused" || fail "bad rate: $out"
printf 'export:\n  protocol: [sshfs, ftp]\n' > "$dir/bad.yml"
out=$("$bin" validate "$dir/bad.yml" 2>&1); rc=$?
[ $rc = 2 ] && [[ "$out" == *"bad.yml:2:21: export.protocol: 'ftp' is not allowed; allowed: sshfs, smb, nfs"* ]] \
	&& pass "unknown protocol at FILE:LINE:COL" || fail "unknown protocol (exit $rc): $out"
printf 'export:\n  sshfs: {cipher: des}\n' > "$dir/bad.yml"
out=$("$bin" validate "$dir/bad.yml" 2>&1)
[[ "$out" == *"bad.yml:2:19: export.sshfs.cipher: 'des' is not allowed; allowed: chacha20-poly1305@openssh.com, aes128-ctr"* ]] \
	&& pass "unknown cipher listed with the allowed ones" || fail "unknown cipher: $out"

# --- the cipher rows ---------------------------------------------------------
"$bin" plan "$dir/exh.yml" 2>/dev/null | grep -o 'sb-[0-9a-f]*-\(srv\|cli\)' | sort -u > "$dir/ns"
"$bin" build-and-test --results "$dir/res" --columns setup,dd.write,dd.read "$dir/exh.yml" \
	> "$dir/bt.out" 2> "$dir/bt.err" || fail "build-and-test: $(tail -5 "$dir/bt.err")"
sed 's/^/    /' "$dir/bt.out"
for row in "— local" "— SSHFS chacha20" "— SSHFS aes128-ctr"; do
	grep -q "^EXT4 $row " "$dir/bt.out" && pass "row '$row'" || fail "no row '$row'"
done
python3 - "$dir/res" <<'PY' || fail "results (above)"
import glob, json, sys
rows = {json.load(open(f))["stack"]["name"]: json.load(open(f)) for f in glob.glob(sys.argv[1] + "/*.json")}
def fig(d, k):
    return [s for s in d["suites"] if s["suite"] == "dd"][0]["figures"][k]["value"]
bad = []
local = rows.get("exh")
if sorted(rows) != ["exh", "exh.sshfs-aes128-ctr", "exh.sshfs-chacha20"]: bad.append("rows %s" % sorted(rows))
for n, c in (("exh.sshfs-chacha20", "chacha20-poly1305@openssh.com"), ("exh.sshfs-aes128-ctr", "aes128-ctr")):
    d = rows.get(n)
    if not d or not local: continue
    e = d["export"]
    m = e["link"]["measured"]
    up, down = m["to_server_bps"] / 8e6, m["to_client_bps"] / 8e6
    if e["cipher"] != c or e["protocol"] != "sshfs" or e["link"]["rate"] != "1gbit": bad.append("%s: %s" % (n, e))
    if not 0 < up <= 131 or not 0 < down <= 131: bad.append("%s: link %.0f/%.0f MB/s not shaped to 1 Gbit/s" % (n, up, down))
    w, r = fig(d, "write"), fig(d, "read")
    print("    %s: write %.1f (link %.1f, local %.1f), read %.1f (link %.1f, local %.1f) MB/s" % (n, w, up, fig(local, "write"), r, down, fig(local, "read")))
    if w > up * 1.05 or r > down * 1.05: bad.append("%s exceeds the link" % n)
    if w > fig(local, "write") * 1.05 or r > fig(local, "read") * 1.05: bad.append("%s exceeds the local row" % n)
print("\n".join("    " + b for b in bad))
sys.exit(1 if bad else 0)
PY
l=$(leftover_net)
[ -z "$l" ] && pass "nothing left after build-and-test" || fail "left behind: $l"

# --- what this kernel cannot serve ----------------------------------------
if ! grep -qw nfsd /proc/filesystems && ! modprobe -n nfsd 2>/dev/null; then
	out=$("$bin" build-and-test --results "$dir/res2" --set export.protocol=nfs "$dir/exh.yml" 2>&1); rc=$?
	[ $rc != 0 ] && [[ "$out" == *"export nfs needs the kernel NFS server, and this kernel has none"* ]] \
		&& pass "nfs refused on this kernel, with why" || fail "nfs on a kernel without nfsd (exit $rc): $(tail -3 <<<"$out")"
	l=$(leftover_net)
	[ -z "$l" ] && pass "nothing left after the refused nfs run" || fail "left behind: $l"
fi
[ $errors = 0 ]
