#!/usr/bin/env bash
# Runs nvcc (the first argument) with the remaining arguments in a temporary
# directory of its own, removed when nvcc exits.
#
# nvcc and the tools it calls name their intermediate files in $TMPDIR (/tmp
# when unset) after their process ids, and some of those names carry no part of
# the source's name (/tmp/tmpxft_<pid>_00000000-2.cpp). Bazel's linux-sandbox
# starts every action in a fresh PID namespace, where each nvcc gets the same pid,
# while /tmp stays shared: two nvcc actions at once then write and delete each
# other's files, and one fails with exit 255 and no message.
set -euo pipefail
nvcc=$1
shift
scratch=$(mktemp -d "${TMPDIR:-/tmp}/nvcc.XXXXXXXX")
trap 'rm -rf "$scratch"' EXIT
TMPDIR=$scratch "$nvcc" "$@"
