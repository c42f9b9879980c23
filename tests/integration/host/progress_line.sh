#!/bin/bash
# Progress people can read (issue 11, item 6), with --progress forcing the
# live line into a file: each frame of a job says MB/s, IOPS, percent done
# and ETA; a suite's says which phase of how many; build-and-test's which
# stack of how many and the build step; no frame is left on screen (every
# last frame is cleared before the next message and at the end); without
# a terminal and without --progress there is no live line at all.
# Needs root (builds tests/stacks/plain.yml on a loop device).
set -u
. "$(dirname "$0")/../lib.sh"
sb_test progress --root --scratch
sets=(--set bench.suites=[quick] --set bench.size=16MiB --set bench.runtime=1s --set "devices.loop.dir=$tmp/loops"
      --results "$tmp/res")

"$sb" --progress build-and-test "$src/tests/stacks/plain.yml" "${sets[@]}" > "$tmp/out" 2> "$tmp/err" ||
	{ bad "build-and-test exited $?: $(tail -5 "$tmp/err")"; exit 1; }
python3 - "$tmp/err" <<'PY' && ok "frames: stack k of n, build step, phase k of n, MB/s, IOPS, %, ETA; none left" || bad "see above"
import re, sys
err = open(sys.argv[1], encoding="utf-8", errors="replace", newline="").read()
frames = [f[:-3] for f in re.findall(r"\r([^\r\n]+?\x1b\[K)", err) if len(f) > 3]
def has(pat, what):
    if not any(re.search(pat, f) for f in frames):
        print("no frame like /%s/ (%s); frames: %r" % (pat, what, frames[:8]))
        sys.exit(1)
has(r"^\[stack 1 of 1\] plain: build step 2 of 3: ext4$", "build step")
has(r"^\[stack 1 of 1\] plain: quick phase 3 of 4: quick randread: randread \S+, [0-9.]+ MB/s, [0-9]+ IOPS, [0-9]+%, ETA [0-9]+s$",
    "a job's frame")
# a frame left on screen: a line whose last \r-segment is a frame, or a frame at the very end
for line in err.split("\n")[:-1]:
    last = line.split("\r")[-1]
    if re.fullmatch(r".+\x1b\[K", last):
        print("frame left on screen: %r" % last)
        sys.exit(1)
tail = err.split("\n")[-1]
if tail and tail.split("\r")[-1] not in ("", "\x1b[K"):
    print("last frame not cleared: %r" % tail)
    sys.exit(1)
PY
grep -q '^Stack' "$tmp/out" && ok "the table on stdout" || bad "no table: $(cat "$tmp/out")"

"$sb" build-and-test "$src/tests/stacks/plain.yml" "${sets[@]}" > "$tmp/out" 2> "$tmp/err" || bad "plain run: $?"
grep -q $'\r' "$tmp/err" && bad "a live line without a terminal or --progress" || ok "no live line when stderr is a file"

truncate -s 32M "$tmp/job.img"
"$sb" --progress job --target "$tmp/job.img" --rw randread --bs 4KiB --runtime 2s --buffered > "$tmp/out" 2> "$tmp/err" ||
	bad "job: $(cat "$tmp/err")"
[ "$(tail -c 4 "$tmp/err" | od -An -c | tr -d ' ')" = '\r033[K' ] && ok "job: the last frame is cleared" ||
	bad "job: stderr ends with $(tail -c 40 "$tmp/err" | od -An -c | tr -s ' ')"
grep -q 'IOPS' "$tmp/out" && ok "job: its report on stdout" || bad "job output: $(cat "$tmp/out")"
sb_end
