# Thin wrapper over CMake. `make run` and `make test` are the README's two commands.
JOBS ?= $(shell nproc)
BUILD ?= build
SAN_BUILD ?= build-asan
RUN_TRACE ?= $(BUILD)/demo/demo.pfw.gz
RUN_REPORT ?= $(BUILD)/demo/report.html

.PHONY: all deps build run test test-release test-asan bench clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# The main job on a trace spoor makes itself, so it works on any machine:
# its figures on the terminal, then its report as one page to open.
run: build
	@mkdir -p $(dir $(RUN_TRACE))
	$(BUILD)/spoor gen -o $(RUN_TRACE) --size-mb 50 --seed 1
	$(BUILD)/spoor stats $(RUN_TRACE)
	$(BUILD)/spoor report $(RUN_TRACE) -o $(RUN_REPORT)
	@echo "the report: $(abspath $(RUN_REPORT)) (open it in a browser; it needs no network)"

test: test-release test-asan

test-release: build
	@mkdir -p $(BUILD)/testtmp
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The whole suite again, built by clang with ASan+UBSan, plus the libFuzzer targets.
test-asan: deps
	@CC=clang cmake -S . -B $(SAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DSPOOR_SANITIZE=ON -DSPOOR_FUZZ=ON >/dev/null
	@cmake --build $(SAN_BUILD) -j $(JOBS)
	@mkdir -p $(SAN_BUILD)/testtmp
	cd $(SAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		ctest --output-on-failure -j $(JOBS)

bench: build
	bench/ingest/run.sh

clean:
	rm -rf $(BUILD) $(SAN_BUILD)
