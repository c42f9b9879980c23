#!/bin/bash
# The second half of prov_stacks.sh's stacks (see there: SB_PROV_SHARD).
#   tests/integration/uml/prov_stacks_2.sh
SB_PROV_SHARD=${SB_PROV_SHARD:-2/2} exec "$(dirname "$0")/prov_stacks.sh" "$@"
