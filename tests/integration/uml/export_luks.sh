#!/bin/bash
# build-and-test of stacks/export-luks.yml (RAID1 -> LUKS 4096 -> ext4,
# export sshfs, NFSv4.2 and SMB 3.1.1 over a 1 Gbit/s veth), small: 256 MiB loops,
# 64 MiB dd. Checks: the table has the local row and one row per client
# (SSHFS chacha20, NFSv4.2, SMB 3.1.1; one cipher here: the cipher rows are
# host/export_host.sh's, faster outside the throwaway kernel); every client figure is at most the
# link measured by iperf3 in the same run (+5 %) and at most the local
# figure measured right before or after it (+5 %), each client job's bytes
# having reached (or come from) the server's dm-crypt mapping while the job
# ran; the shaped link is at most its rate (+5 %); the results
# record protocol, options, cipher, link and measured rate; and nothing is
# left: no namespace, veth, daemon, client mount, md/dm/loop or state file.
#   tests/integration/run.sh export_luks
set -u
. "$(dirname "$0")/layers_lib.sh"
sb_uml_test "$0" "$@"
res=$state/results
stack=$root/stacks/export-luks.yml
leftover_net() {
	ip netns list 2>/dev/null | grep '^sb-' | sed 's/^/netns: /'
	ip -o link show 2>/dev/null | grep -o 'sbv[0-9a-f]*[sc]' | sed 's/^/veth: /'
	pgrep -af "$state/" | sed 's/^/process: /'
	pgrep -af '^(rpc\.mountd|iperf3|sshfs|smbd) ' | sed 's/^/process: /'
	grep -E ' (fuse\.sshfs|nfs4?|cifs) ' /proc/self/mountinfo | sed 's/^/mount: /'
	cat /proc/fs/nfsd/threads 2>/dev/null | grep -v '^0$' | sed 's/^/nfsd threads: /'
	ls -d "$state"/export-* 2>/dev/null | sed 's/^/rundir: /'
}

out=$(timeout 600 "$SB" build-and-test --set devices.loop.size=256MiB --set "devices.loop.dir=$work" \
	--set bench.size=64MiB --set bench.per_layer=false --results "$res" \
	--set export.sshfs.cipher=chacha20-poly1305@openssh.com \
	--columns setup,dd.write,dd.read "$stack" 2>"$state/bt.log"); rc=$?
check "build-and-test exit" 0 "$rc"
[ $rc = 0 ] || tail -30 "$state/bt.log" | sed 's/^/    | /'
echo "$out" | sed 's/^/    /'
for row in "— local" "— SSHFS chacha20" "— NFSv4.2" "— SMB 3.1.1"; do
	if grep -q "EXT4 on LUKS.*$row" <<<"$out"; then ok "table row '$row'"
	else bad "table has no row '$row'"; fi
done

"$(dirname "$0")/export_luks_check.py" "$res" && ok "results: protocol, options, link, measured rate; client <= link and <= local" || bad "results check (above)"
"$SB" compare --per-layer "$res"/*.json 2>&1 | grep -E 'export|SSHFS' | sed 's/^/    /'
l=$(leftover_net)
if [ -z "$l" ]; then ok "no namespace, veth, daemon or run directory left"
else bad "left behind:"; echo "$l" | sed 's/^/    /'; fi
assert_clean "export-luks"
