# Shared by layers_*.sh (sourced, not run): a private state dir and work dir,
# the leak check, expectations read from a stack file, and a trap that tears
# down whatever a failed test left and FAILS the test if anything leaked.
# Runs as root inside the throwaway kernel (scripts/uml-run.sh), where the
# only block devices are the ones the test makes.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
. "$root/tests/integration/lib.sh"
SIZE=${SB_LAYERS_LOOP_SIZE:-128MiB}
fails=0
passes=0

[ "$(id -u)" = 0 ] || { echo "layers: must run as root (inside scripts/uml-run.sh)"; exit 1; }
[ -x "$SB" ] || { echo "layers: $SB not built"; exit 1; }
state=$(mktemp -d /tmp/sb-layers-state.XXXXXX)
work=$(mktemp -d /var/tmp/sb-layers-work.XXXXXX)
export STACKBENCH_STATE_DIR=$state

ok() { passes=$((passes + 1)); echo "ok   - $*"; }
bad() { fails=$((fails + 1)); echo "FAIL - $*"; }
check() { # check DESCRIPTION EXPECTED ACTUAL
	if [ "$2" = "$3" ]; then ok "$1 = $3"; else bad "$1: expected '$2', got '$3'"; fi
}

# Everything a stack could leave behind, one line per leftover.
leftovers() {
	grep -E '^md[0-9]+' /proc/mdstat | sed 's/^/mdstat: /'
	ls /sys/block | grep -E '^(dm-|md)' | sed 's/^/block: /'
	sb_loops_backed_by "$work" | sed 's/^/loop: /'
	grep -F " $state/" /proc/self/mountinfo | sed 's/^/mount: /'
	grep -F " $work/" /proc/self/mountinfo | sed 's/^/mount: /'
	lvm pvs --noheadings -o pv_name 2>/dev/null | sed 's/^ */pv: /'
	lvm vgs --noheadings -o vg_name 2>/dev/null | sed 's/^ */vg: /'
	ls /dev/mapper 2>/dev/null | grep -v '^control$' | sed 's/^/dev-mapper: /'
	ls /dev/md 2>/dev/null | sed 's/^/dev-md: /'
	find "$work" -mindepth 1 2>/dev/null | sed 's/^/file: /'
	ls "$state"/*.state 2>/dev/null | sed 's/^/state: /'
}

assert_clean() { # assert_clean WHAT
	local l
	udevadm settle -t 10 2>/dev/null
	l=$(leftovers)
	if [ -z "$l" ]; then ok "$1: nothing left"; else bad "$1: left behind:"; echo "$l" | sed 's/^/    /'; fi
}

cleanup() {
	local s l
	for s in "$state"/*.state; do
		[ -e "$s" ] || continue
		s=$(basename "$s" .state)
		echo "cleanup: tearing down $s"
		"$SB" teardown "$s" || true
	done
	udevadm settle -t 10 2>/dev/null
	l=$(leftovers)
	if [ -n "$l" ]; then
		bad "leak check at exit:"; echo "$l" | sed 's/^/    /'
		# last resort so the throwaway kernel halts clean; still a failure
		umount -l $(grep -F " $state/" /proc/self/mountinfo | awk '{print $5}') 2>/dev/null
		for d in /dev/mapper/sb-*; do [ -e "$d" ] && dmsetup remove -f "$(basename "$d")"; done 2>/dev/null
		lvm vgremove -f $(lvm vgs --noheadings -o vg_name 2>/dev/null | grep sb_) 2>/dev/null
		mdadm --stop --scan 2>/dev/null
		sb_loop_detach $(sb_loops_backed_by "$work" | cut -d' ' -f1)
	fi
	rm -rf "$state" "$work"
	echo "layers: $passes passed, $fails failed"
	[ "$fails" = 0 ]
}
trap 'cleanup; exit $?' EXIT

# Shell assignments for what a stack file asks (with stackbench's defaults):
# NAME LEVEL LAYOUT CHUNK RDEV LVM EXTENT LVPCT LUKS LTYPE CIPHER KEY SECTOR ITER BLOCK
expect() { # expect FILE [KEY=VALUE...]  (overrides as --set would)
	python3 - "$@" <<'PY'
import sys, os, yaml
path = sys.argv[1]
d = yaml.safe_load(open(path)) or {}
for kv in sys.argv[2:]:
    k, v = kv.split('=', 1)
    node = d
    ks = k.split('.')
    for p in ks[:-1]:
        node = node.setdefault(p, {})
    node[ks[-1]] = yaml.safe_load(v)
def size(s):
    if isinstance(s, int): return s
    units = {'B': 1, 'KiB': 1 << 10, 'MiB': 1 << 20, 'GiB': 1 << 30}
    for u in sorted(units, key=len, reverse=True):
        if s.endswith(u): return int(float(s[:-len(u)]) * units[u])
    return int(s)
r, l, k, f = d.get('raid') or {}, d.get('lvm') or {}, d.get('luks') or {}, d.get('fs') or {}
out = {
    'NAME': d.get('name') or os.path.basename(path).rsplit('.', 1)[0],
    'LEVEL': r.get('level', 0),
    'RDEV': r.get('devices', 0),
    'LAYOUT': {'near': 'near', 'far': 'far', 'offset': 'offset'}.get(str(r.get('layout', 'near2')).rstrip('0123456789'), '?') + '=' + str(r.get('layout', 'near2'))[-1],
    'CHUNK': size(r.get('chunk', '512KiB')),
    'BITMAP': r.get('bitmap', 'internal'),
    'LVM': 1 if l else 0,
    'VG': 'sb_' + str(l.get('vg', 'vg')), 'LV': 'sb_' + str(l.get('lv', 'lv')),
    'EXTENT': size(l.get('extent_size', '4MiB')),
    'LVSIZE': str(l.get('size', '100%FREE')),
    'LUKS': 1 if k else 0,
    'LTYPE': str(k.get('type', 'luks2')).upper(),
    'CIPHER': k.get('cipher', 'aes-xts-plain64'),
    'KEY': k.get('key_size', 512),
    'SECTOR': k.get('sector_size', 512 if str(k.get('type', 'luks2')) == 'luks1' else 4096),
    'ITER': (k.get('pbkdf') or {}).get('iterations', 1000),
    'BLOCK': f.get('block_size', 4096),
}
for key, v in out.items():
    print("%s='%s'" % (key, v))
PY
}

# Mount point of a built stack, from its state file.
mountpoint_of() {
	python3 - "$state/$1.state" <<'PY'
import json, sys
for o in json.load(open(sys.argv[1])).get('objects', []):
    if o.get('layer') == 'mount' and o.get('kind') == 'mount':
        print(o['id'])
PY
}
