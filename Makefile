# Tabula. `make run` installs what is missing, builds and serves; `make test` does the same and runs every test.
.PHONY: all bootstrap build asan run test quick bench strength fuzz clean

PORT ?= 8080
HOST ?= 127.0.0.1

all: build

bootstrap:
	bash scripts/bootstrap.sh

build: bootstrap
	cmake --preset release
	cmake --build --preset release
	@# Tigadi's endgame tables (half a minute to build, never committed; --max-gotis 6 is opt-in): the AI plays table positions perfectly.
	@[ -f build/release/tables/tigadi.tbl ] || ./build/release/tabula tables --game tigadi

asan: bootstrap
	cmake --preset asan
	cmake --build --preset asan

run: build
	./build/release/tabula serve --host $(HOST) --port $(PORT)

test: bootstrap
	bash scripts/test.sh

# For one's own iterations: the release build and its unit, rules, AI and protocol tests, without the API and
# browser suites or the sanitizer build (a few minutes instead of twenty).
quick: build
	ctest --preset release --exclude-regex '^(api|e2e)[.]'

bench: build
	./build/release/tabula bench

# docs/strength.md, generated whole by `tabula arena` from scripts/strength.json (hours at SCALE=1 on 2 cores;
# SCALE=0.1 for a rough look).
SCALE ?= 1
strength: bootstrap
	bash scripts/strength.sh $(SCALE)

clean:
	rm -rf build

# Coverage-guided fuzzing of the engine protocol (not part of `make test`): FUZZ_SECONDS of libFuzzer.
FUZZ_SECONDS ?= 60
fuzz: bootstrap
	cmake --preset fuzz
	cmake --build --preset fuzz
	mkdir -p build/fuzz/corpus && cp tests/fuzz/corpus/* build/fuzz/corpus/
	./build/fuzz/engine_fuzz -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=10 build/fuzz/corpus
