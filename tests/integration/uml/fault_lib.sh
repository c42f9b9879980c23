# Shared by fault_*.sh (sourced, not run): layers_lib.sh's private state and
# work dirs, leak check and cleanup trap, plus a results dir and a helper
# that runs build-and-test on a stack file written by the test and prints
# the path of its results file. Inside the throwaway kernel only.
. "$(dirname "${BASH_SOURCE[0]}")/layers_lib.sh"
resdir=$(mktemp -d /tmp/sb-fault-res.XXXXXX)
# a script that dies half-way (syntax error, set -e...) must not pass: each
# test sets finished=1 as its last line
trap 'rm -rf "$resdir"; [ -n "${finished:-}" ] || bad "the test stopped before its end"; cleanup; exit $?' EXIT

# run_stack YAML-FILE: build-and-test into $resdir/<stack>, its loop files
# in the private work dir; sets RC, OUT, RES
run_stack() {
	local name
	name=$(basename "$1" .yml)
	mkdir -p "$resdir/$name"
	OUT=$("$SB" build-and-test --set devices.loop.dir="$work" --results "$resdir/$name" "$1" 2>&1)
	RC=$?
	RES=$(ls -t "$resdir/$name"/*.json 2>/dev/null | head -1)
	echo "$OUT" | tail -12 | sed 's/^/    | /'
}

# judge_results OK-TEXT BAD-TEXT [ARG...]: the Python check on stdin, run
# on $RES (and ARGs); ok/bad by its exit status; "no results file" without.
judge_results() {
	local good=$1 poor=$2
	shift 2
	if [ -z "$RES" ]; then bad "no results file"; return 1; fi
	if python3 - "$RES" "$@"; then ok "$good"; else bad "$poor"; fi
}
