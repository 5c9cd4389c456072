# ImageFeed: `make demo` runs the app on the demo sandbox, `make test` runs every test.
SHELL := /bin/bash
SWIFT ?= swift

# Debian packages the build needs (headers of the C libraries: JPEG, PNG, GIF, WebP, TIFF; ncurses-term for terminal types such as
# xterm-direct, libcurl for HTTP, FFmpeg's libraries for video items): all that `make build` and `make demo` install.
DEB_PACKAGES := libncurses-dev ncurses-term libjpeg62-turbo-dev libpng-dev libgif-dev libwebp-dev libtiff-dev libqrencode-dev libsqlite3-dev libsixel-dev zlib1g-dev libcurl4-openssl-dev libavformat-dev libavcodec-dev libswscale-dev libavutil-dev pkg-config
# What only the tests add: ffmpeg to make the videos the tests read, valgrind to run the codec's C reader under
# memcheck (it sees what FFmpeg's own code writes), tmux for the end-to-end tests, zbar-tools to read the login's QR code back, and
# real terminal emulators under Xvfb for the pictures in pixels and what terminals leave behind (kitty, xterm as a
# VT340, urxvt, mlterm; GNU screen for the tests that run the app inside it), photographed with
# ImageMagick's import, with xwininfo from x11-utils to find the window on the screen; img2sixel is what the
# Sixel picture is compared with).
TEST_PACKAGES := $(PACKAGE_PACKAGES) ffmpeg valgrind tmux zbar-tools xvfb kitty xterm rxvt-unicode mlterm alacritty chafa screen mosh openssh-client openssh-server xdotool x11-utils imagemagick libsixel-bin fonts-dejavu-core
# What only the benchmarks use: chafa, the picture-in-a-terminal tool the thumbnail time is compared with.
BENCH_PACKAGES := chafa
# What `make package` adds: lintian, which checks the Debian package (dpkg-shlibdeps, which finds its Depends, comes
# with dpkg-dev, as the build's compiler does).
PACKAGE_PACKAGES := lintian dpkg-dev
# What `make install` adds: nothing beyond the build's packages (HTTP goes through libcurl, linked as the
# build links it); kept so one place says so.
INSTALL_PACKAGES :=
# Where `make install` puts the program, its man page and completions (PREFIX=/usr/local make install ...).
PREFIX ?= $(HOME)/.local
# PyPI tools the tests use: none yet (kept here so one command installs everything).
PY_PACKAGES :=

.PHONY: all deps build demo test check bench fuzz sandbox install uninstall package clean

all: build

deps:
	@bash scripts/install-deps.sh "$(DEB_PACKAGES)" "$(PY_PACKAGES)"

# The program as `make install` builds it (release, the Swift runtime linked in), in .build/install/release: an
# install after it builds nothing again.
build: deps
	SWIFT="$(SWIFT)" bash scripts/install.sh build

demo: deps
	$(SWIFT) run image-feed --demo

test: deps
	@bash scripts/install-deps.sh "$(TEST_PACKAGES) $(INSTALL_PACKAGES)" ""
	$(SWIFT) build --build-tests
	# The program as installed is built (release, static) beside the suite, which mostly waits on terminals and
	# servers, and packaged (make package, into .build/dist); the install and package checks then find them made.
	# Its log is printed after the suite's.
	(SWIFT="$(SWIFT)" bash scripts/install.sh build && IMAGE_FEED_BUILT=1 LINTIAN=0 DIST=.build/dist bash scripts/package.sh) \
	  > .build/install-build.log 2>&1 & echo $$! > .build/install-build.pid
	# A hung test fails the run instead of holding CI. The suite runs as two groups at once (scripts/run-tests.sh).
	SWIFT="$(SWIFT)" timeout 1800 bash scripts/run-tests.sh; status=$$?; pid=$$(cat .build/install-build.pid); \
	  if [ $$status != 0 ]; then pkill -TERM -P $$pid; kill $$pid 2>/dev/null; fi; \
	  while kill -0 $$pid 2>/dev/null; do sleep 2; done; tail -n 40 .build/install-build.log | grep -v "^I: .*spelling-error"; \
	  grep -q "^Packaged image-feed" .build/install-build.log || { echo "the release build or the package failed" >&2; exit 1; }; \
	  exit $$status
	# Side by side: the program installed as `make install` installs it, and the package and the tarball as a user of
	# a box without Swift meets them (apt-get install, run, purge; lintian). Both run with no Swift on PATH; the guards
	# are against a hang. The install check's log is printed after the package check's.
	IMAGE_FEED_BUILT=1 SWIFT="$(SWIFT)" timeout 2700 bash scripts/test-install.sh > .build/test-install.log 2>&1 & pid=$$!; \
	  DIST=.build/dist timeout 600 bash scripts/test-package.sh; package=$$?; wait $$pid; install=$$?; \
	  cat .build/test-install.log; [ $$package = 0 ] && [ $$install = 0 ]

# The inner loop: every class but the ones that start the program in terminals (docs/dev/testing.md).
check: deps
	@bash scripts/install-deps.sh "$(TEST_PACKAGES)" ""
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --disable-swift-testing --skip 'RealTerminal|EndToEndTests|FirstUseTests|WalkthroughTests|NobodyMisledTests|ExploreEndToEndTests|WhatAUserMeetsTests|MachineFaultTests'

bench: deps
	@bash scripts/install-deps.sh "$(BENCH_PACKAGES)" ""
	# Every product in release: the long-session benchmark runs the image-feed program beside the benchmark.
	$(SWIFT) build -c release
	# The quick parts by default (a few minutes, each printed as it ends); the long ones by name, for instance
	# make bench BENCH="--only slowlink --only hostile --only animation", or BENCH="--only scroll --scroll-photos 10000".
	.build/release/image-feed-bench $(BENCH)

# libFuzzer on every fuzz target, ten minutes each (scripts/fuzz.sh says how to choose).
fuzz: deps
	bash scripts/fuzz.sh

sandbox: deps
	$(SWIFT) run unsplash-sandbox --port 8780 --auto-approve

install: deps
	@bash scripts/install-deps.sh "$(INSTALL_PACKAGES)" ""
	SWIFT="$(SWIFT)" bash scripts/install.sh install "$(PREFIX)"

uninstall:
	bash scripts/install.sh uninstall "$(PREFIX)"

# The Debian package, the tarball and SHA256SUMS, in dist/ (scripts/package.sh; docs/install.md).
package: deps
	@bash scripts/install-deps.sh "$(PACKAGE_PACKAGES)" ""
	SWIFT="$(SWIFT)" bash scripts/package.sh

clean:
	rm -rf .build
