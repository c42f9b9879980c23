#!/bin/bash
# btrfs's own raid1 over two loop devices, no md (stacks/btrfs-raid1.yml,
# with fs.compress=zstd): build, then a results file whose btrfs layer
# reads back from the mounted filesystem's /sys/fs/btrfs/UUID what is in
# effect - data and metadata raid1, both members, node size, checksum -
# and whose mount layer shows compress=zstd in the kernel's options (the
# file matches docs/results-schema.json); the
# kernel's view (btrfs filesystem show) has 2 devices; teardown leaves no
# mount and no loop device. Outside the throwaway kernel it boots one.
set -u
src=$(cd "$(dirname "$0")/../../.." && pwd)
. "$src/tests/integration/lib.sh"
sb_test btrfs --uml --scratch -- "$@"

stack=$src/stacks/btrfs-raid1.yml
sets=(--set "devices.loop.dir=$tmp/work" --set devices.loop.size=160MiB --set fs.compress=zstd)

"$sb" --no-progress build "${sets[@]}" "$stack" > "$tmp/build.out" 2> "$tmp/build.err" ||
	{ fail "build exited $?"; cat "$tmp/build.err"; }
mnt=$STACKBENCH_STATE_DIR/mnt/btrfs-raid1
n=$(btrfs filesystem show "$mnt" 2>/dev/null | grep -c 'devid')
[ "$n" = 2 ] && ok "btrfs filesystem show: 2 devices" || fail "btrfs filesystem show lists $n devices"

"$sb" --no-progress bench "${sets[@]}" --set 'bench.suites=[quick]' --set bench.size=16MiB \
	--results "$tmp/res" "$stack" > "$tmp/bench.out" 2> "$tmp/bench.err" ||
	{ fail "bench STACK exited $?"; tail -5 "$tmp/bench.err"; }
sb_results_py "$tmp/res" <<'PY' || fail "the results file does not record btrfs as built"
assert "md" not in layers, layers.keys()
b = layers["btrfs"]
for k, v in (("type", "btrfs"), ("label", "stackbench"), ("data_profile", "raid1"),
             ("metadata_profile", "raid1"), ("nodesize", 16384), ("sector_size", 4096),
             ("checksum", "crc32c")):
    assert b.get(k) == v, (k, b.get(k), b)
assert len(b["members"]) == 2, b
assert "compress=zstd" in layers["mount"]["options"], layers["mount"]
assert layers["mount"]["fstype"] == "btrfs", layers["mount"]
print("ok: results: btrfs raid1/raid1, 2 members, 16 KiB nodes, crc32c; mounted with compress=zstd")
PY
# and the file matches docs/results-schema.json (btrfs's block included)
if python3 -c 'import jsonschema' 2>/dev/null; then
	out=$(sb_results check "$tmp/res" 2>&1) && ok "results schema: $out" ||
		fail "results schema: $out"
fi

"$sb" teardown btrfs-raid1 > "$tmp/td.out" 2>&1 || { fail "teardown exited $?"; cat "$tmp/td.out"; }
grep -q " $mnt " /proc/mounts && fail "still mounted: $mnt"
for f in /sys/block/loop*/loop/backing_file; do
	[ -r "$f" ] && grep -q -F "$tmp" "$f" && fail "loop device left: $f"
done
sb_end
