# Shared by verdict_*.sh (sourced, not run): two stacks under --repeat auto,
# their results, and the verdicts `compare --baseline` gives them.
. "$(dirname "${BASH_SOURCE[0]}")/fault_lib.sh"

# auto_run NAME A.yml B.yml ARGS...: build-and-test --repeat auto into
# $resdir/NAME; sets RC and LOG; prints how long it took
auto_run() {
	local name=$1 a=$2 b=$3 t0
	shift 3
	mkdir -p "$resdir/$name"
	t0=$(date +%s)
	LOG=$("$SB" build-and-test --repeat auto --set devices.loop.dir="$work" --results "$resdir/$name" \
		"$@" "$a" "$b" 2>&1)
	RC=$?
	echo "$LOG" | grep -E "repeat auto|vs .*95|no detectable|slower|faster" | sed 's/^/    | /'
	echo "    $name: $(( $(date +%s) - t0 )) s"
}

# run_order_ok NAME MAXROUNDS: both results files record auto, its
# settings, the same number of rounds in 3..MAXROUNDS and why they stopped
run_order_ok() {
	python3 - "$2" "$resdir/$1"/*.json <<'PY'
import json, sys
mx, errs, rounds = int(sys.argv[1]), [], set()
for p in sys.argv[2:]:
    o = json.load(open(p)).get("run_order") or {}
    print("    %s: rounds %s, stopped %s: %s" % (p.split("/")[-1], o.get("rounds"), o.get("stopped"), o.get("stopped_why")))
    if o.get("repeat") != "auto" or o.get("stopped") not in ("precision", "verdicts", "max_repeat", "max_time") \
       or not o.get("stopped_why") or o.get("min_repeat") != 3 or o.get("max_repeat") != mx:
        errs.append("run_order %r" % o)
    rounds.add(o.get("rounds"))
if len(sys.argv) != 4: errs.append("%d results files" % (len(sys.argv) - 2))
if len(rounds) != 1 or not 3 <= min(rounds) <= mx: errs.append("rounds %s" % rounds)
for e in errs: print("    " + e)
sys.exit(1 if errs else 0)
PY
}
