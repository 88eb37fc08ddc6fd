# Two entry points for a fresh Debian machine (see README.md):
#   make run    install deps, build, run the tour  (nnt tour --quick --out nnt-tour)
#   make test   install deps (chromium and yosys too), build, run the test suite (ctest), then again under ASan+UBSan
#               (all but the tests labelled slow; leaks inside the font stack are suppressed), and,
#               when mpicc is present, builds $(BUILD)-mpi with -DNNT_MPI=ON and runs its tests labelled mpi;
#               then `make fuzz`, `make clang` and `make test-aarch64-ci` (below)
# and `make install` (PREFIX=/usr/local, DESTDIR for staging): nnt, its man page, libnnt.so, the
# headers and nnt.pc (README.md, "Install and link").
BUILD ?= build
JOBS  ?= $(shell nproc)
CMAKE_FLAGS ?=
PREFIX ?= /usr/local

.PHONY: deps deps-test deps-cross build run test test-fast asan mpi fuzz clang test-aarch64 test-aarch64-ci cross-aarch64 bench install clean

deps:
	@bash scripts/deps.sh

deps-test:
	@bash scripts/deps.sh test

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

run: build
	$(BUILD)/nnt tour --quick --out nnt-tour

# deps-test first: configure looks for chromium (the report.html browser tests) and yosys (Verilog)
# then the golden cases against the committed results (scripts/golden/): a change of a result is a
# re-recording in the same commit, never unnoticed drift
test-fast: deps-test build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	NNT=$(abspath $(BUILD))/nnt bash scripts/golden.sh check

asan: deps-test
	cmake -S . -B $(BUILD)-asan -DCMAKE_BUILD_TYPE=Debug -DNNT_SANITIZE=ON >/dev/null
	cmake --build $(BUILD)-asan -j $(JOBS)
	cd $(BUILD)-asan && LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp \
	  ctest --output-on-failure -j $(JOBS) -LE slow

# The MPI build (docs/distributed.md): only what differs from the default build is tested there.
mpi: deps-test
	@if command -v mpicc >/dev/null; then \
	  cmake -S . -B $(BUILD)-mpi -DCMAKE_BUILD_TYPE=Release -DNNT_MPI=ON >/dev/null && \
	  cmake --build $(BUILD)-mpi -j $(JOBS) --target nnt && \
	  cd $(BUILD)-mpi && ctest --output-on-failure -j $(JOBS) -L mpi; \
	else echo "make mpi: no mpicc, the MPI build is not tested"; fi

# The fuzz targets (docs/reliability.md, "Fuzzing"), built by CMake from the library's own targets in
# $(BUILD)-fuzz (-DNNT_FUZZ=ON, clang), each run FUZZ_SECONDS on its seeds and the regression inputs
# of the reader bugs fuzzing found: a crash, leak, undefined behaviour or failed round trip fails.
FUZZ_SECONDS ?= 4
fuzz: deps-test
	@if command -v clang >/dev/null; then FUZZ_DIR=$(BUILD)-fuzz bash fuzz/run.sh $(FUZZ_SECONDS); \
	else echo "make fuzz: no clang, the fuzz targets are not built"; fi

# The second compiler: the suite built with clang in $(BUILD)-clang (all but the tests labelled
# slow; install/example_cross builds the example with gcc against the clang-built library), and the
# golden cases (scripts/golden.sh) computed by the clang build, compared with the GCC build's.
clang: deps-test build
	@if command -v clang >/dev/null; then \
	  CC=clang cmake -S . -B $(BUILD)-clang -DCMAKE_BUILD_TYPE=Release >/dev/null && \
	  cmake --build $(BUILD)-clang -j $(JOBS) && \
	  (cd $(BUILD)-clang && ctest --output-on-failure -j $(JOBS) -LE slow) && \
	  rm -rf $(abspath $(BUILD))-clang/golden-gcc && \
	  NNT=$(abspath $(BUILD))/nnt bash scripts/golden.sh record $(abspath $(BUILD))-clang/golden-gcc >/dev/null 2>&1 && \
	  NNT=$(abspath $(BUILD))-clang/nnt bash scripts/golden.sh check $(abspath $(BUILD))-clang/golden-gcc 2>/dev/null; \
	else echo "make clang: no clang, the clang build is not tested"; fi

test: test-fast asan mpi fuzz clang test-aarch64-ci

deps-cross:
	@bash scripts/deps.sh cross-aarch64

# The aarch64 build (docs/developing.md, "aarch64"): cross-compiled in $(BUILD)-aarch64 with Debian's
# gcc-aarch64-linux-gnu against the arm64 libraries, without PLplot (-DNNT_PLPLOT=OFF: its arm64
# package cannot be installed beside the amd64 one); its unit tests run under qemu-user, and the
# golden cases (scripts/golden.sh) computed by it under qemu must equal the native x86-64 build's
# bit for bit. Besides the unit tests the ones labelled "emulated" run there (cli/version_isa,
# cli/isa_foreign: the --version line, NNT_ISA=avx2 refused; cli/peak_fmla: the arithmetic peak's
# loop is FMLA, from the disassembly). AARCH64_TESTS (a ctest -R regex) and
# AARCH64_GOLDEN (golden.sh's GOLDEN_ONLY) choose a subset; empty: all of them (hours emulated on a
# loaded 2-core machine). test-aarch64-ci is the subset `make test` (CI) runs; its list and emulated
# times: docs/developing.md, "aarch64". Emulated times are not speed figures.
AARCH64_TESTS ?=
AARCH64_GOLDEN ?=
AARCH64_CI_TESTS ?= ^(core/test_(cpu|dmath|rng|gemm|nn_grad|optim|ckpt|simd_fma)|report/test_plot_text|approx/test_sampling_ntk|icl/test_(net|eval)|qstr/test_(models|task|rnn_minnorm)|rcnn/test_(parity|rule|tern|tm2d)|circuits/test_d5|tm/test_experiment|cli/(version_isa|isa_foreign|peak_fmla|test_cli_run))$$
AARCH64_CI_GOLDEN ?= tm_run|tm_compile|qstr_ffnbound|qstr_construct|approx_square|approx_ntk|approx_maurey|approx_planting|approx_sobolev|approx_lazy|approx_separation|circuit_margin_file|circuit_margin|icl_construct|bounds_sm|circuit_learn|qstr_rnn
test-aarch64: deps-cross build
	cmake -S . -B $(BUILD)-aarch64 -DCMAKE_TOOLCHAIN_FILE=$(CURDIR)/cmake/aarch64-linux-gnu.cmake \
	  -DCMAKE_BUILD_TYPE=Release -DNNT_PLPLOT=OFF $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD)-aarch64 -j $(JOBS)
	qemu-aarch64 $(BUILD)-aarch64/nnt --version
	cd $(BUILD)-aarch64 && ctest --output-on-failure -j $(JOBS) -L '^(unit|emulated)$$' -E @ $(if $(AARCH64_TESTS),-R '$(AARCH64_TESTS)')
	rm -rf $(abspath $(BUILD))-aarch64/golden-x86
	GOLDEN_ONLY='$(AARCH64_GOLDEN)' NNT=$(abspath $(BUILD))/nnt bash scripts/golden.sh record $(abspath $(BUILD))-aarch64/golden-x86 >/dev/null 2>&1
	GOLDEN_ONLY='$(AARCH64_GOLDEN)' NNT="qemu-aarch64 $(abspath $(BUILD))-aarch64/nnt" \
	  bash scripts/golden.sh check $(abspath $(BUILD))-aarch64/golden-x86 2>/dev/null

# A machine whose package mirror has no arm64 packages skips it with one line (as the ONNX runtime
# checks do without npm); NNT_REQUIRE_AARCH64=1 makes that an error. A failed test always fails.
test-aarch64-ci:
	@if bash scripts/deps.sh cross-aarch64; then \
	  $(MAKE) test-aarch64 AARCH64_TESTS='$(AARCH64_CI_TESTS)' AARCH64_GOLDEN='$(AARCH64_CI_GOLDEN)'; \
	elif [ "$${NNT_REQUIRE_AARCH64:-0}" = 1 ]; then echo "make test-aarch64-ci: the arm64 packages could not be installed" >&2; exit 1; \
	else echo "make test-aarch64-ci: the arm64 packages could not be installed, the aarch64 build is not tested" >&2; fi

cross-aarch64: test-aarch64

bench: build
	$(BUILD)/nnt bench core

install: build
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --prefix "$(PREFIX)"

clean:
	rm -rf $(BUILD) $(BUILD)-asan $(BUILD)-mpi $(BUILD)-fuzz $(BUILD)-clang $(BUILD)-aarch64
