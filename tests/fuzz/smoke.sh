#!/usr/bin/env bash
# smoke.sh SRC BUILD CUDA_HOME: the CPU tier's short fuzzing run. Builds the
# libFuzzer targets with clang and the sanitizers into BUILD, then runs each
# for a few seconds (GB_FUZZ_SECONDS, default 3) on the seed corpus.
set -eu
SRC=$1
BUILD=$2
CUDA_HOME=$3
CC=clang cmake -S "$SRC" -B "$BUILD" -DGB_CUDA_HOME="$CUDA_HOME" -DGB_FUZZ=ON -DBUILD_TESTING=OFF >/dev/null
cmake --build "$BUILD" -j 2 --target fuzz_all >/dev/null
bash "$SRC/tests/fuzz/run.sh" "$BUILD" "${GB_FUZZ_SECONDS:-3}"
