# Kinetic — make targets. `make demo` and `make test` work on a fresh Debian machine:
# they install the system packages first (as root, or with sudo when it is there).

SWIFT      ?= swift
BUILD_DIR  ?= .build
CONFIG     ?= release
KINETIC     = $(BUILD_DIR)/$(CONFIG)/kinetic
OUT        ?= out
DEMO_SCENE ?= scenes/download-button.yaml
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Build and run-time packages: Cairo and Pango (raster and text), giflib and
# libimagequant (GIF), libdeflate (PNG files), Chipmunk2D (physics), fonts for text (DejaVu for Latin, Greek
# and Cyrillic, Noto CJK for Chinese, Japanese and Korean, Noto Color Emoji); ffmpeg and
# ImageMagick decode GIFs independently in tests and are the peers in `make bench`;
# FFmpeg's libraries (MP4, WebM, MOV, APNG) and libwebp (animated WebP); libxml2 (the
# geometry of `path: {svg: FILE}`) and librsvg (SVG contents); libzip (the
# dotLottie archive, `-o NAME.lottie`); webp (img2webp,
# webpmux) and python3-pil decode WebP independently; parallel runs the shard recipe;
# headless Chromium and its WebDriver drive `kinetic preview` in the browser test, and
# python3's jsonschema checks the scenes against `kinetic schema`.
APT_PACKAGES = pkg-config libcairo2-dev libpango1.0-dev libgif-dev libimagequant-dev \
               libchipmunk-dev libdeflate-dev fonts-dejavu-core fonts-noto-cjk fonts-noto-color-emoji \
               ffmpeg imagemagick time \
               libavcodec-dev libavformat-dev libswscale-dev libavutil-dev libwebp-dev \
               libxml2-dev librsvg2-dev libzip-dev \
               webp python3-pil parallel \
               chromium chromium-driver python3 python3-jsonschema python3-yaml python3-pip

.PHONY: deps build demo demos test golden bench gallery clean fuzz lottie-check lottie-py pymunk-py

## deps: install every system package (idempotent; skips apt when all are present)
deps:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing" >&2; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

## build: release build of the kinetic command
build: deps
	$(SWIFT) build -c $(CONFIG) --product kinetic

## demo: render the default scene to a GIF and say where it is
demo: build
	@mkdir -p $(OUT)
	$(KINETIC) render $(DEMO_SCENE) -o $(OUT)/demo.gif
	@echo "GIF written to $(OUT)/demo.gif"

## demos: render every scene of the gallery to $(OUT)/NAME.gif (skips up-to-date ones);
## fails if a GIF is over the gallery's 3 MB (3,000,000 bytes, issue 17)
demos: build
	$(KINETIC) batch scenes -o $(OUT)
	@big=$$(for s in scenes/*.yaml; do g=$(OUT)/$$(basename $$s .yaml).gif; \
	  [ $$(stat -c %s $$g) -le 3000000 ] || echo "$$g ($$(stat -c %s $$g) bytes)"; done); \
	if [ -n "$$big" ]; then echo "over 3 MB: $$big" >&2; exit 1; fi

## test: every unit test, the CLI checks, the library's quick start built outside the project, the golden frames of every scene, a short fuzz
## run, the schema against the scenes, then `kinetic preview` in headless Chromium (with a
## 20 s soak; PREVIEW_SOAK_SECONDS=1800 for the long one)
PREVIEW_SOAK_SECONDS ?= 20
test: deps
	$(SWIFT) build -c $(CONFIG) --product kinetic
	$(SWIFT) test --parallel
	KINETIC=$(KINETIC) bash Tests/cli/run.sh
	KINETIC=$(KINETIC) bash Tests/library/quick_start.sh
	$(KINETIC) golden check
	python3 Tests/fuzz/fuzz.py --kinetic $(KINETIC) --count 2000 --render-every 8 --seed 14
	python3 Tests/fuzz/surfaces.py encode --kinetic $(KINETIC) --count 800 --seed 37
	python3 Tests/fuzz/surfaces.py golden --kinetic $(KINETIC) --count 600 --seed 37
	python3 Tests/fuzz/surfaces.py preview --kinetic $(KINETIC) --count 4000 --seed 37
	KINETIC=$(KINETIC) /usr/bin/python3 Tests/schema/check.py
	$(MAKE) lottie-check
	KINETIC=$(KINETIC) PREVIEW_SOAK_SECONDS=$(PREVIEW_SOAK_SECONDS) /usr/bin/python3 Tests/browser/preview_test.py

## lottie-check: every gallery scene exported as Lottie, validated against the official
## schema (PyPI lottie-specs) and played by rlottie (PyPI rlottie-python) against Kinetic's
## own frames by PSNR (docs/lottie.md). The two packages go into $(LOTTIE_PY), not the system.
## `make bench` runs it with --gif: each scene's GIF size and render time beside the export's.
LOTTIE_PY ?= $(BUILD_DIR)/lottie-py
lottie-check: lottie-py
	PYTHONPATH=$(LOTTIE_PY) KINETIC=$(KINETIC) /usr/bin/python3 Tests/lottie/check.py $(LOTTIE_CHECK_FLAGS)

## lottie-py: lottie-specs and rlottie-python in $(LOTTIE_PY) (lottie-check's validator and
## player, and the rlottie peer of `make bench`), installed once
lottie-py:
	@[ -d $(LOTTIE_PY)/lottie_specs ] && [ -d $(LOTTIE_PY)/rlottie_python ] || \
	  /usr/bin/python3 -m pip install -q --disable-pip-version-check --target $(LOTTIE_PY) lottie-specs rlottie-python

## pymunk-py: pymunk (PyPI; not a Debian package) in $(PYMUNK_PY), the physics peer of
## `make bench` (Tests/bench/physics.sh), installed once
PYMUNK_PY ?= $(BUILD_DIR)/pymunk-py
pymunk-py:
	@[ -d $(PYMUNK_PY)/pymunk ] || \
	  /usr/bin/python3 -m pip install -q --disable-pip-version-check --target $(PYMUNK_PY) pymunk

# fuzz: the mutation fuzzer of docs/limits.md at length (FUZZ_COUNT inputs, FUZZ_SEED)
FUZZ_COUNT ?= 20000
FUZZ_SEED  ?= $(shell date +%s)
fuzz: build
	python3 Tests/fuzz/fuzz.py --kinetic $(KINETIC) --count $(FUZZ_COUNT) --seed $(FUZZ_SEED) --render-every 4 --jobs 2
	for target in encode golden preview; do \
	  python3 Tests/fuzz/surfaces.py $$target --kinetic $(KINETIC) --count $(FUZZ_COUNT) --seed $(FUZZ_SEED) || exit 1; done

## golden: re-render the golden frames of every scene (look at them before committing)
golden: build
	$(KINETIC) golden update

## bench: kinetic vs ffmpeg, ImageMagick and Pillow on the same frames (Tests/bench/run.sh;
## GIF_BENCH_SCENES=all for the GIF table of every gallery scene, see Tests/bench/gif.sh)
bench: build lottie-py pymunk-py
	KINETIC=$(KINETIC) LOTTIE_PY=$(LOTTIE_PY) PYMUNK_PY=$(PYMUNK_PY) bash Tests/bench/run.sh
	$(MAKE) lottie-check LOTTIE_CHECK_FLAGS=--gif

clean:
	rm -rf $(BUILD_DIR) $(OUT)

## gallery: docs/gallery.png (each scene's name and four frames), a few GIFs and the
## preview's screenshot docs/preview.png for the README
GALLERY_GIFS = flow-menu sticky-bubble tvos-card fireworks-button
gallery: build
	@rm -rf $(OUT)/gallery && mkdir -p $(OUT)/gallery docs
	@for s in scenes/*.yaml; do \
	  n=$$(basename $$s .yaml); \
	  $(KINETIC) render $$s --contact-sheet $(OUT)/gallery/$$n.png --quiet --scale 0.5 || exit 1; \
	  convert $(OUT)/gallery/$$n.png -gravity North -background white -splice 0x28 \
	    -font DejaVu-Sans -pointsize 20 -annotate +0+2 "$$n" $(OUT)/gallery/$$n.png; \
	done
	montage $(OUT)/gallery/*.png -tile 4x -geometry 280x+6+6 -background white docs/gallery.png
	@for n in $(GALLERY_GIFS); do \
	  $(KINETIC) render scenes/$$n.yaml -o docs/$$n.gif --scale 1 --quiet || exit 1; \
	done
	KINETIC=$(KINETIC) PREVIEW_SCREENSHOT=docs/preview.png python3 Tests/browser/preview_test.py
	@echo "docs/gallery.png, docs/preview.png and $(foreach n,$(GALLERY_GIFS),docs/$(n).gif) written"
