# gpubound - the front door. The real build is CMake; these targets drive it.
#   make run       install what is missing, build, then show the device and run the bandwidth suite
#                  (without a GPU: one line saying so, then a demo on the runs recorded under data/)
#   make test      install what is missing, build, then run every CPU test tier (unit, nvrtc, cli, html);
#                  the last line says which device tests it did not run, and why
#   make check     the quick tier for the edit loop (ctest label quick: the unit tests and the
#                  cli tests under ~10 s; under 3 minutes on 2 cores; docs/testing.md)
#   make gpu-test  the device tier: every suite in quick mode on a real GPU
#                  (without a GPU: one line saying so, and the recipe exits 3)
#   make install   install gpubound, libgpubound (.a and .so), its headers, gpubound.pc, the CMake
#                  package, the man pages and bash completion under PREFIX (default /usr/local),
#                  staged under DESTDIR when it is set
#   make deps      install the Debian packages the build and tests need (apt-get, as root), and
#                  the Python tests' packages (pandas, pytest, jsonschema) into $(BUILD)/venv (pip)
#   make asan      build with AddressSanitizer + UndefinedBehaviorSanitizer (build-asan) and run
#                  the CPU tiers under them
#   make fuzz      build the libFuzzer targets of every loader with clang and the sanitizers
#                  (build-fuzz) and run each for FUZZ_SECONDS (default 60) on the seed corpus
#                  (docs/testing.md, "Fuzzing")

BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CUDA_HOME ?= /usr/local/cuda
RUN_OUT ?= runs/$(shell date -u +%Y%m%dT%H%M%SZ)
PREFIX ?= /usr/local
PKGS = cmake make gcc clang libclang-rt-14-dev pkg-config libgsl-dev libjansson-dev libssl-dev libcmocka-dev zlib1g-dev gnuplot-nox pmccabe python3 libjs-chart.js chromium libmatheval-dev libclang-dev libopenmpi-dev openmpi-bin python3-venv

FUZZ_SECONDS ?= 60

.PHONY: all build run test check gpu-test install deps clean asan fuzz

all: build

deps:
	@missing=""; for p in $(PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "make deps: installing$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing >/dev/null \
	    || { echo "make deps: apt-get could not install$$missing; install them and run make again" >&2; exit 1; }; \
	fi; \
	if [ ! -f "$(CUDA_HOME)/include/cuda.h" ]; then \
	  echo "make deps: no CUDA toolkit at $(CUDA_HOME) (cuda.h not found): gpubound builds for reports and models, without CUPTI counters or the NVRTC kernel tests; to measure on a GPU install the toolkit (apt-get install nvidia-cuda-toolkit and CUDA_HOME=/usr, or NVIDIA's cuda-toolkit packages from developer.nvidia.com/cuda-downloads) or set CUDA_HOME" >&2; \
	fi
	@bash scripts/python_deps.sh $(BUILD)/venv

$(BUILD)/Makefile: CMakeLists.txt | deps
	cmake -S . -B $(BUILD) -DGB_CUDA_HOME=$(CUDA_HOME) >/dev/null

build: deps $(BUILD)/Makefile
	cmake --build $(BUILD) -j $(JOBS)

# Without a GPU, `gpubound info` says so in one line (exit 3) and the demo
# shows the same commands on the runs recorded under data/.
run: build
	@$(BUILD)/gpubound info; rc=$$?; \
	if [ $$rc = 3 ]; then bash scripts/demo.sh $(BUILD)/gpubound runs/demo; \
	elif [ $$rc = 0 ]; then $(BUILD)/gpubound run bandwidth --out $(RUN_OUT); \
	else exit $$rc; fi

test: build
	@rm -f $(BUILD)/skipped-checks.log
	@cd $(BUILD) && ctest --output-on-failure -LE device -j $(JOBS); rc=$$?; \
	bash $(CURDIR)/scripts/test_summary.sh "$$PWD"; exit $$rc

check: build
	cd $(BUILD) && ctest --output-on-failure -L quick -j $(JOBS)

# Without a GPU the tier says so in one line and exits 3 (gpubound's "no usable
# GPU"), rather than failing every device test.
gpu-test: build
	@$(BUILD)/gpubound info >/dev/null 2>&1; rc=$$?; \
	if [ $$rc = 3 ]; then echo "make gpu-test: no usable GPU on this machine (gpubound info exits 3); the device tier needs one" >&2; exit 3; fi
	cd $(BUILD) && ctest --output-on-failure -L device

install: build
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --prefix "$(PREFIX)"

asan: deps
	CC=clang cmake -S . -B build-asan -DGB_CUDA_HOME=$(CUDA_HOME) -DGB_SANITIZE=ON >/dev/null
	cmake --build build-asan -j $(JOBS)
	@# The unit tests build records on the stack and do not release all of them:
	@# leaks are checked in the tool (cli, nvrtc), memory and UB errors everywhere.
	cd build-asan && export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 && \
	  ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -L 'cli|nvrtc' -j $(JOBS) && \
	  ASAN_OPTIONS=detect_leaks=0 ctest --output-on-failure -L unit -E build_with_clang -j $(JOBS)

fuzz: deps
	CC=clang cmake -S . -B build-fuzz -DGB_CUDA_HOME=$(CUDA_HOME) -DGB_FUZZ=ON -DBUILD_TESTING=OFF >/dev/null
	cmake --build build-fuzz -j $(JOBS) --target fuzz_all
	bash tests/fuzz/run.sh build-fuzz $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD) build-asan build-fuzz
