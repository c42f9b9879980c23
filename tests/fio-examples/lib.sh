# Shared by tests/integration/host/job_fio_examples.sh and
# tests/bench/fio-examples.sh (sourced): the corpus and its overlay.
FEX_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# fex_overlay SRC DST: the small copy of job file SRC that both tools run
# (README.md "The overlay").
fex_overlay() {
	{
		printf '[global]\nsize=4m\nruntime=1\n'
		sed -E 's/^(\s*)size=.*/\1size=4m/; s/^(\s*)filesize=.*/\1filesize=4m/
			s/^(\s*)runtime=.*/\1runtime=1/
			s#^(\s*)filename=/dev/(sd|nvme|fio|XXX)[^ 	;\#]*#\1filename=blockdev#
			s#^(\s*)directory=/[^ 	;\#]*#\1directory=.#
			s#^(\s*)filename=/tmp/#\1filename=#' "$1"
	} >"$2"
}

# fex_manifest: "STATUS FILE REST" for every line of the MANIFEST
fex_manifest() {
	grep -vE '^\s*(#|$)' "$FEX_DIR/MANIFEST"
}

# fex_refusal ERRFILE: the option a refusal names ("not supported by
# stackbench job: --rw=read:8k" -> rw), or the message's first line
fex_refusal() {
	local m
	m=$(grep -m1 -oE "not supported by stackbench job: (--)?[A-Za-z0-9_-]+|unknown option '[^']+'" "$1")
	if [ -n "$m" ]; then
		m=${m#not supported by stackbench job: }; m=${m#--}; m=${m#unknown option \'}; echo "${m%\'}"
	else
		head -1 "$1"
	fi
}
