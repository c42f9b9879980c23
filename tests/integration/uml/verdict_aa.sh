#!/bin/bash
# A/A: the same stack (ext4 on one 64 MiB loop device, suite quick, 8 MiB,
# 1 s phases) under two names, --repeat auto (interleaved, at most 4 rounds,
# --precision 10). compare --baseline must find no detectable difference.
# A 95 % interval says faster/slower for about 5 % of the figures of an A/A
# run by design (and looking after every round adds to it): a figure that
# decided at 95 % passes when its paired 99.9 % interval still holds 0 (the
# t quantiles below, recorded from scipy.stats.t.ppf(0.9995, df)); if one
# decides at 99.9 %, the A/A run is made once more and the test fails only
# if the second one decides at 99.9 % too (false alarm rate ~1e-6 if the
# rounds were exchangeable; a real difference between the two names, e.g.
# an order effect within rounds, fails it, as it should).
#   tests/integration/run.sh verdict_aa
set -u
. "$(dirname "$0")/verdict_lib.sh"

for n in a b; do
	cat > "$resdir/vaa-$n.yml" <<YML
name: vaa-$n
devices:
  loop: {count: 1, size: 64MiB}
fs: {type: ext4}
bench: {suites: [quick], size: 8MiB, runtime: 1s, per_layer: false}
YML
done
cols=stack,quick.randwrite_iops

# judge NAME: 0 no difference (at 95 %, or only at 95 % and not 99.9 %), 1 decided at 99.9 %
judge() {
	"$SB" compare --baseline vaa-a --columns "$cols" --format json "$resdir/$1" > "$resdir/$1.json" || return 2
	python3 - "$resdir/$1.json" "$resdir/$1"/vaa-a-*.json "$resdir/$1"/vaa-b-*.json <<'PY'
import json, math, sys
T9995 = {2: 31.5991, 3: 12.924, 4: 8.6103, 5: 6.8688, 6: 5.9588, 7: 5.4079, 8: 5.0413, 9: 4.7809}
b = {r["stack"]: r for r in json.load(open(sys.argv[1]))["rows"]}["vaa-b"]
fa, fb = (json.load(open(p)) for p in sys.argv[2:4])
def per_round(res, fig):
    return {s["repetition"]: s["figures"][fig]["value"] for s in res["suites"] if s["suite"] == "quick"}
decided = 0
for c in ("quick.randwrite_iops",):
    v = b.get(c + "_verdict")
    print("    %s: %s %s%% [%s, %s]" % (c, v, b.get(c + "_diff_pct"), b.get(c + "_ci_low_pct"), b.get(c + "_ci_high_pct")))
    if v == "no detectable difference":
        continue
    ra, rb = per_round(fa, c.split(".")[1]), per_round(fb, c.split(".")[1])
    d = [math.log(rb[r] / ra[r]) for r in ra if r in rb]
    n = len(d); m = sum(d) / n; sd = math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1))
    h = T9995[n - 1] * sd / math.sqrt(n)
    print("    %s: decided at 95 %%; 99.9 %% interval [%.1f, %.1f] %%" % (c, 100 * math.expm1(m - h), 100 * math.expm1(m + h)))
    if m - h > 0 or m + h < 0:
        decided += 1
sys.exit(1 if decided else 0)
PY
}

auto_run aa "$resdir/vaa-a.yml" "$resdir/vaa-b.yml" --max-repeat 4 --precision 10 --baseline vaa-a --columns "$cols"
[ "$RC" = 0 ] && ok "A/A: exit 0" || bad "A/A: exit $RC: $(echo "$LOG" | tail -5)"
run_order_ok aa 4 && ok "A/A: run_order says auto, the rounds and why they stopped" || bad "A/A: run_order (above)"
judge aa; j=$?
if [ $j = 1 ]; then
	echo "    decided at 99.9 %: the A/A run once more"
	auto_run aa2 "$resdir/vaa-a.yml" "$resdir/vaa-b.yml" --max-repeat 4 --precision 10 --baseline vaa-a \
		--columns "$cols"
	judge aa2; j=$?
fi
[ $j = 0 ] && ok "A/A: no detectable difference" || bad "A/A: a difference between the same stack's two names (above)"
assert_clean "A/A"
finished=1
