# ImageFeed: `make demo` runs the app on the demo sandbox, `make test` runs every test.
SHELL := /bin/bash
SWIFT ?= swift

# Debian packages the build and the tests need (headers of the C libraries, tmux for end-to-end tests,
# ncurses-term for terminal types such as xterm-direct, zbar-tools to read QR codes back in tests).
DEB_PACKAGES := libncurses-dev ncurses-term libjpeg62-turbo-dev libpng-dev libqrencode-dev libsqlite3-dev tmux pkg-config zbar-tools
# PyPI tools the tests use: none yet (kept here so one command installs everything).
PY_PACKAGES :=

.PHONY: all deps build demo test bench sandbox clean

all: build

deps:
	@bash scripts/install-deps.sh "$(DEB_PACKAGES)" "$(PY_PACKAGES)"

build: deps
	$(SWIFT) build

demo: deps
	$(SWIFT) run image-feed --demo

test: deps
	$(SWIFT) build --build-tests
	# A hung test fails the run instead of holding CI (the whole suite takes under a minute).
	timeout 900 $(SWIFT) test --skip-build --disable-swift-testing

bench: deps
	$(SWIFT) run -c release image-feed-bench

sandbox: deps
	$(SWIFT) run unsplash-sandbox --port 8765

clean:
	rm -rf .build
