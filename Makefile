# Betacut's builds, installation and release files.
#
#   make EXE=<path>          release build for this machine, copied to <path> (default ./betacut),
#                            as OpenBench and other engine-testing frameworks expect
#   make pgo EXE=<path>      as `make`, but a profile-guided build (scripts/pgo_build.sh: an
#                            instrumented build runs bench and a few self-play games first); the
#                            same moves and node counts, 6-10 % less CPU (docs/experiments.md);
#                            needs `rustup component add llvm-tools`
#   make windows EXE=<path>  betacut.exe for 64-bit Windows 10 and 11 (x86-64-v2, POPCNT),
#                            cross-built on Debian (default ./betacut.exe); installs the Debian
#                            packages it needs if they are missing (scripts/windows_deps.sh)
#   make windows-check       the Windows build tested under Wine: the test suite, perft and
#                            bench node counts against the Linux build, games in both protocols
#                            (scripts/windows_check.sh; about 20 minutes on 2 cores, so it is
#                            not part of .ci/run: run it before a release and after changes to
#                            platform code, i.e. input reading, files, paths, memory, threads)
#   make arm64 EXE=<path>    a 64-bit ARM Linux binary (aarch64-unknown-linux-gnu: Raspberry Pi
#                            OS 64-bit, ARM laptops and servers), cross-built on Debian like the
#                            exe (default ./betacut-arm64); `make s390x` the same for IBM Z
#                            (big-endian), the build the s390x check runs
#   make arm64-check         the ARM build tested under qemu-aarch64: perft suites, bench, book,
#                            EvalFile and Syzygy answers against this machine's build, games in
#                            both protocols, the unit tests (scripts/cross_check.sh; a release
#                            check like windows-check, not CI); `make s390x-check` the same on
#                            big-endian s390x
#   make macos-check         `cargo check` of the engine for Apple silicon and Intel Macs
#                            (aarch64- and x86_64-apple-darwin), standard library built from
#                            source, no linking
#   make install             the engine, its manual page and XBoard's plugin file and logo under
#                            $(DESTDIR)$(PREFIX) (PREFIX defaults to /usr/local); builds the
#                            engine first if it is not built yet (run `make` after changes)
#   make uninstall           removes what `make install` put there
#   make dist                dist/: the Linux binary, the ARM64 Linux binary, the Windows exe,
#                            the manual page, SHA256SUMS
#   make check-man           the manual page renders without a warning
#   make fuzz                the fuzz targets (fuzz/, cargo-fuzz and libFuzzer on a nightly
#                            toolchain; docs/fuzzing.md) built, their corpora seeded from the test
#                            data, then each run for FUZZ_SECONDS (default 3600) in turn: the
#                            release-time run, not CI (it needs nightly and hours)
#   make fuzz-smoke          the same, 20 s per target (FUZZ_SMOKE_SECONDS)
#
# Every target builds the engine alone (`-p betacut`); the lab (lab/, betacut-lab: data
# generation, training, tuning) is built by `cargo build --release` at the root.
#
# Extra rustc flags go in RUSTFLAGS as usual (e.g. RUSTFLAGS="-C target-cpu=native"); note that
# RUSTFLAGS replaces the x86-64-v2 setting of .cargo/config.toml.

EXE ?= betacut
CARGO ?= cargo
TARGET_DIR ?= $(or $(CARGO_TARGET_DIR),target)
BIN = $(TARGET_DIR)/release/betacut

# Installation, laid out as Debian's engines are (`dpkg -L fairymax`): the program in games/,
# the manual page in section 6 (games), and XBoard's plugin files in share/games/plugins/.
# XBoard looks for plugins in /usr/share/games/plugins and /usr/local/share/games/plugins only,
# so with another PREFIX Betacut must be added to XBoard by hand.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/games
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
PLUGINDIR ?= $(DATADIR)/games/plugins

# The Windows build. The exe is linked by MinGW-w64 for the standard target
# x86_64-pc-windows-gnu, the one the Rust project supports fully (tier 1) and the one a native
# `cargo build --release` with the GNU toolchain on Windows builds; it is compiled by Debian's
# rustc-web with its standard library built from source (-Zbuild-std; RUSTC_BOOTSTRAP=1 lets a
# stable compiler take that flag). The standard library of this target takes its random seeds
# from ProcessPrng (bcryptprimitives.dll), which Windows 10 and 11 have. Wine 8 lacks it, so
# scripts/windows_check.sh gives Wine a stand-in DLL (scripts/wine/bcryptprimitives.c) in a
# Wine prefix of its own; the stand-in is never shipped. The alternative, the x86_64-win7-
# windows-gnu target, runs under Wine 8 as it is, but it is a tier-3 target (the Rust project
# neither builds nor tests it) that swaps Windows 10's system calls for Windows 7's fallbacks
# (random numbers, locks and thread waiting, clocks): the exe users get would run code paths
# that few others run, to please a test tool.
WIN_TARGET = x86_64-pc-windows-gnu
# A target directory of its own: the standard library built from source must not meet the
# prebuilt one of the host's builds (two builds of `core` collide).
WIN_TARGET_DIR ?= $(TARGET_DIR)/windows
WIN_ENV = env PATH="/usr/bin:$$PATH" RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc \
	RUSTC_BOOTSTRAP=1 CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
WIN_FLAGS = -Zbuild-std=std,panic_abort --target $(WIN_TARGET)
# The test build: the test harness needs unwinding, and one build of the standard library must
# serve the tests and the engine they start, so both unwind here (the shipped exe aborts);
# without whole-program optimisation, which only makes the many test programs slow to link.
# Wine runs each test program (a WINEPREFIX with the ProcessPrng stand-in is the caller's:
# scripts/windows_check.sh).
WIN_TEST_FLAGS = --release --config 'profile.release.panic="unwind"' \
	--config 'profile.release.lto=false' --config 'profile.release.codegen-units=16'

# The cross builds for Linux on other CPUs and the macOS check, by the same route as the exe:
# Debian's rustc-web with the standard library built for the target (-Zbuild-std), in a target
# directory of its own per target; the C cross linkers and qemu-user come from Debian too.
CROSS_ENV = env PATH="/usr/bin:$$PATH" RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc \
	RUSTC_BOOTSTRAP=1 CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc \
	CARGO_TARGET_S390X_UNKNOWN_LINUX_GNU_LINKER=s390x-linux-gnu-gcc
ARM64_TARGET = aarch64-unknown-linux-gnu
S390X_TARGET = s390x-unknown-linux-gnu
MACOS_TARGETS = aarch64-apple-darwin x86_64-apple-darwin

VERSION = $(shell sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)

.PHONY: all build pgo windows windows-test windows-check arm64 arm64-test arm64-check s390x \
	s390x-test s390x-check macos-check install uninstall dist check-man fuzz fuzz-build \
	fuzz-smoke clean

all: build
	@if [ -f $(TARGET_DIR)/release/betacut.exe ]; then \
		cp $(TARGET_DIR)/release/betacut.exe "$(EXE)"; \
	else \
		cp $(BIN) "$(EXE)"; \
	fi

build:
	$(CARGO) build --release -p betacut

pgo:
	scripts/pgo_build.sh . "$(EXE)" "$(RUSTFLAGS)"

# Only when it is missing: `sudo make install` after `make` must not need a Rust toolchain.
$(BIN):
	$(CARGO) build --release -p betacut

windows: EXE = betacut.exe
windows:
	scripts/windows_deps.sh
	$(WIN_ENV) CARGO_TARGET_DIR="$(WIN_TARGET_DIR)" /usr/bin/cargo build $(WIN_FLAGS) --release -p betacut
	cp $(WIN_TARGET_DIR)/$(WIN_TARGET)/release/betacut.exe "$(EXE)"

# The engine's test suite, built for Windows and run by Wine (used by scripts/windows_check.sh).
windows-test:
	scripts/windows_deps.sh --wine
	$(WIN_ENV) CARGO_TARGET_DIR="$(TARGET_DIR)/windows-test" \
		CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER=wine \
		/usr/bin/cargo test $(WIN_FLAGS) $(WIN_TEST_FLAGS) -p betacut --no-fail-fast

windows-check:
	scripts/windows_check.sh

arm64: EXE = betacut-arm64
arm64:
	scripts/cross_deps.sh arm64
	$(CROSS_ENV) CARGO_TARGET_DIR="$(TARGET_DIR)/arm64" /usr/bin/cargo build -p betacut \
		-Zbuild-std=std,panic_abort --target $(ARM64_TARGET) --release
	cp $(TARGET_DIR)/arm64/$(ARM64_TARGET)/release/betacut "$(EXE)"

# The engine's unit tests for the target; the caller sets the runner (scripts/cross_check.sh:
# CARGO_TARGET_<TRIPLE>_RUNNER=qemu-...).
arm64-test:
	$(CROSS_ENV) CARGO_TARGET_DIR="$(TARGET_DIR)/arm64-test" /usr/bin/cargo test -p betacut --lib \
		-Zbuild-std=std,panic_abort --target $(ARM64_TARGET) $(WIN_TEST_FLAGS)

arm64-check:
	scripts/cross_check.sh arm64

s390x: EXE = betacut-s390x
s390x:
	scripts/cross_deps.sh s390x
	$(CROSS_ENV) CARGO_TARGET_DIR="$(TARGET_DIR)/s390x" /usr/bin/cargo build -p betacut \
		-Zbuild-std=std,panic_abort --target $(S390X_TARGET) --release
	cp $(TARGET_DIR)/s390x/$(S390X_TARGET)/release/betacut "$(EXE)"

s390x-test:
	$(CROSS_ENV) CARGO_TARGET_DIR="$(TARGET_DIR)/s390x-test" /usr/bin/cargo test -p betacut --lib \
		-Zbuild-std=std,panic_abort --target $(S390X_TARGET) $(WIN_TEST_FLAGS)

s390x-check:
	scripts/cross_check.sh s390x

macos-check:
	scripts/cross_deps.sh macos
	for target in $(MACOS_TARGETS); do \
		$(CROSS_ENV) CARGO_TARGET_DIR="$(TARGET_DIR)/macos" /usr/bin/cargo check -p betacut \
			-Zbuild-std=std,panic_abort --target $$target --release || exit 1; \
	done
	@echo "macos-check: the engine compiles for $(MACOS_TARGETS)"

install: $(BIN)
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(MANDIR)/man6" \
		"$(DESTDIR)$(PLUGINDIR)/xboard" "$(DESTDIR)$(PLUGINDIR)/logos"
	install -m 755 $(BIN) "$(DESTDIR)$(BINDIR)/betacut"
	install -m 644 packaging/betacut.6 "$(DESTDIR)$(MANDIR)/man6/betacut.6"
	install -m 644 packaging/betacut.png "$(DESTDIR)$(PLUGINDIR)/logos/betacut.png"
	@# The plugin file names the installed program by its full path, so XBoard starts it
	@# whether or not the games folder is on PATH (it is not on root's); the variants are
	@# XBoard's names for standard chess and Chess960.
	printf 'plugin spec 0.0\n%s\nchess,fischerandom\n' "$(BINDIR)/betacut" \
		> "$(DESTDIR)$(PLUGINDIR)/xboard/betacut.eng"
	chmod 644 "$(DESTDIR)$(PLUGINDIR)/xboard/betacut.eng"

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/betacut" "$(DESTDIR)$(MANDIR)/man6/betacut.6" \
		"$(DESTDIR)$(PLUGINDIR)/xboard/betacut.eng" "$(DESTDIR)$(PLUGINDIR)/logos/betacut.png"

# The release files of version $(VERSION). The Linux binary is built for x86-64-v2 against this
# system's C library (Debian 12: glibc 2.36, so it runs on systems with that or a newer one).
dist: build
	rm -rf dist
	mkdir -p dist
	$(MAKE) windows EXE=dist/betacut.exe
	$(MAKE) arm64 EXE=dist/betacut-arm64
	cp $(BIN) dist/betacut
	cp packaging/betacut.6 dist/betacut.6
	cd dist && sha256sum betacut betacut-arm64 betacut.exe betacut.6 > SHA256SUMS
	@echo "dist/ for Betacut $(VERSION):" && ls -l dist && cat dist/SHA256SUMS

check-man:
	@out=$$(LC_ALL=C.UTF-8 MANWIDTH=100 groff -man -Tutf8 -ww -z packaging/betacut.6 2>&1); \
	if [ -n "$$out" ]; then echo "$$out"; exit 1; fi
	@echo "packaging/betacut.6: no groff warnings"

# The fuzz targets (docs/fuzzing.md). `-a`: debug assertions and overflow checks on.
FUZZ_SECONDS ?= 3600
FUZZ_SMOKE_SECONDS ?= 20

fuzz-build:
	cargo +nightly fuzz build -a

fuzz: fuzz-build
	fuzz/seed_corpus.sh
	fuzz/run.sh $(FUZZ_SECONDS)

fuzz-smoke: fuzz-build
	fuzz/seed_corpus.sh
	fuzz/run.sh $(FUZZ_SMOKE_SECONDS)

clean:
	$(CARGO) clean
	rm -rf dist
