# Tabula. `make run` installs what is missing, builds and serves; `make test` does the same and runs every test.
.PHONY: all bootstrap build asan run test bench clean

PORT ?= 8080
HOST ?= 127.0.0.1

all: build

bootstrap:
	bash scripts/bootstrap.sh

build: bootstrap
	cmake --preset release
	cmake --build --preset release

asan: bootstrap
	cmake --preset asan
	cmake --build --preset asan

run: build
	./build/release/tabula serve --host $(HOST) --port $(PORT)

test: bootstrap
	bash scripts/test.sh

bench: build
	./build/release/tabula bench

clean:
	rm -rf build
