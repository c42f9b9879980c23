#!/bin/bash
# fio's block size / offset / distribution options mean the same under
# `stackbench job`: the same small job files run by Debian's fio 3.33 and
# by stackbench (buffered psync on a regular file, strace'd for the
# pread64/pwrite64 offsets and lengths). rw=read:8k and rw=read:-8k give
# the same offsets in the same order; rw=randread:4 three sequential reads
# after each random one; zonemode=strided the same zones; bssplit with the
# random map writes every byte once in 4k/16k pieces; zipf:1.2 puts about
# the same share of the reads on the hottest 10% of the blocks.
# Each file is laid out at the job's size first: fio's strided zones wrap at
# the file's end, stackbench's at the job's region (the same here).
# Runtime: about 5 s (1-4 MiB files in /dev/shm). Needs fio and strace.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
sb_host_test job-fio-bsdist
command -v fio >/dev/null && command -v strace >/dev/null ||
	{ echo "FAIL: needs fio and strace" >&2; FAILED=1; exit; }
SB=$(readlink -f "$SB")

job() { # NAME OPTIONS...: a job file
	local n=$1
	shift
	printf '[%s]\nfilename=%s.dat\n' "$n" "$n" >"$TMP/$n.fio"
	printf '%s\n' "$@" >>"$TMP/$n.fio"
}
job back "rw=read:-8k" "bs=4k" "size=1m"
job hole "rw=read:8k" "bs=4k" "size=1m"
job every "rw=randread:4" "bs=4k" "size=1m" "norandommap"
job zone "rw=read" "bs=16k" "size=1m" "zonemode=strided" "zonesize=64k" "zoneskip=192k"
job split "rw=randwrite" "bssplit=4k/50:16k/50" "size=1m"
job zipf "rw=randread" "bs=4k" "size=4m" "loops=4" "norandommap" "random_distribution=zipf:1.2"

for n in back hole every zone split zipf; do
	for t in fio sb; do
		d="$TMP/$t-$n"
		mkdir -p "$d"
		if [ $t = fio ]; then cmd=(fio); else cmd=("$SB" -q job); fi
		# lay the file out first (fio and stackbench alike), then trace the job alone
		size=1048576; [ $n = zipf ] && size=4194304
		(cd "$d" && head -c $size /dev/zero >"$n.dat" && strace -f -y -e trace=pread64,pwrite64 -o calls \
			"${cmd[@]}" --output-format=json --output=out.json "$TMP/$n.fio" >/dev/null 2>err) ||
			fail "$t $n: $(tail -3 "$d/err")"
	done
done

python3 - "$TMP" <<'PY' || fail "stackbench and fio differ (above)"
import collections, re, sys
tmp = sys.argv[1]
bad = 0
def err(m):
    global bad
    print("FAIL:", m)
    bad = 1
def ios(t, n):
    out = []
    for l in open(f"{tmp}/{t}-{n}/calls"):
        m = re.search(r"(pread64|pwrite64)\(\d+<[^>]*\.dat>, .*, (\d+), (\d+)\) = (\d+)", l)
        if m and int(m.group(4)) == int(m.group(2)):
            out.append((int(m.group(3)), int(m.group(2))))
    return out
io = {n: {t: ios(t, n) for t in ("fio", "sb")} for n in ("back", "hole", "every", "zone", "split", "zipf")}
for n in ("back", "hole", "zone"):
    if io[n]["fio"] != io[n]["sb"]:
        k = next((i for i, (a, b) in enumerate(zip(io[n]["fio"], io[n]["sb"])) if a != b), None)
        err(f"{n}: offsets differ: fio {len(io[n]['fio'])} ios, stackbench {len(io[n]['sb'])}; "
            f"first difference at io {k}: fio {io[n]['fio'][k:k + 4] if k is not None else ''} "
            f"stackbench {io[n]['sb'][k:k + 4] if k is not None else ''}")
for t in ("fio", "sb"):
    e = io["every"][t]
    # the first read random, then 3 after it (a group that reaches the file's
    # end goes on at a random offset, as fio's get_next_block)
    groups = range(0, len(e) - 3, 4)
    seqs = sum(1 for i in groups if e[i + 1][0] == e[i][0] + 4096 and e[i + 3][0] == e[i][0] + 12288)
    if len(e) != 256 or seqs < len(groups) - 4 or len({e[i][0] for i in groups}) < len(groups) // 2:
        err(f"every: {t}: {len(e)} reads, {seqs} of {len(groups)} random ones followed by 3 sequential")
    s = io["split"][t]
    cover = sorted(s)
    ok = sum(l for _, l in s) == 1 << 20 and all(l % 4096 == 0 and l <= 16384 for _, l in s) and \
        all(cover[i][0] + cover[i][1] == cover[i + 1][0] for i in range(len(cover) - 1))
    if not ok:
        err(f"split: {t}: {len(s)} writes do not cover the 1 MiB once in 4k..16k pieces")
share = {}
for t in ("fio", "sb"):
    c = sorted(collections.Counter(o for o, _ in io["zipf"][t]).values(), reverse=True)
    share[t] = sum(c[:102]) / max(1, sum(c))
if abs(share["fio"] - share["sb"]) > 0.05:
    err(f"zipf:1.2: the hottest 10% of the blocks get {share['fio']:.3f} of fio's reads, {share['sb']:.3f} of stackbench's")
print(f"zipf:1.2 hottest 10%: fio {share['fio']:.3f} stackbench {share['sb']:.3f}; "
      f"split: fio {len(io['split']['fio'])} writes, stackbench {len(io['split']['sb'])}")
sys.exit(bad)
PY
[ $FAILED = 0 ] && echo "PASS: job_fio_bsdist"
