#!/usr/bin/env bash
# Card artwork for the camera and the vision tests: real card artwork nobody here drew, the CC0
# deck (art by Adrian Kennard) in the npm package @heruka_urgyen/react-playing-cards, four styles
# of 53 faces drawn to PNG with rsvg-convert (Debian librsvg2-bin; CairoSVG mis-renders them),
# and their deck calibrations, in the per-user cache the product reads:
#
#   ${PAIGOW_ASSETS:-${XDG_CACHE_HOME:-~/.cache}/paigow/assets}/cards/<style>/<code>.png
#                                                            .../decks/<style>-<key>.npz
#
# The drawing is the product's own (python -m controller.table.artwork, which the camera also
# runs on first use); this script first installs what it needs on a fresh machine: the project
# in .venv, librsvg2-bin with apt-get when rsvg-convert is missing (root or sudo needed).
# Idempotent and quick when done: a stamp records the package and the drawing settings.
# It also draws the bench's hold-out decks (scripts/holdout_decks.py: public artworks the reader
# is not tuned on) into .../holdout/<deck>/; one that cannot be fetched is named and left out
# (its bench line and test skip), which does not fail this script.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/_venv.sh"

die() {
    printf 'test_assets: %s\n' "$*" >&2
    exit 1
}

holdout() {
    "$VENV/bin/python" "$REPO_ROOT/scripts/holdout_decks.py" >/dev/null \
        || printf 'test_assets: hold-out decks left out (above); their bench lines and tests skip\n' >&2
}

# Already drawn with the current settings: only the calibrations are checked (quick when kept).
drawn='from controller.config.locations import assets_dir
from controller.table.artwork import is_drawn
raise SystemExit(not is_drawn(assets_dir()))'
if "$VENV/bin/python" -c "$drawn"; then
    "$VENV/bin/python" -m controller.table.artwork >/dev/null || die "calibrating the card decks failed"
    holdout
    exit 0
fi

if ! command -v rsvg-convert >/dev/null 2>&1; then
    command -v apt-get >/dev/null 2>&1 || die "rsvg-convert missing and no apt-get: install librsvg2-bin"
    sudo=()
    if [[ $(id -u) -ne 0 ]]; then
        sudo -n true 2>/dev/null || die "rsvg-convert missing; run as root or: apt-get install librsvg2-bin"
        sudo=(sudo -n)
    fi
    printf '==> installing librsvg2-bin (apt)\n' >&2
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends librsvg2-bin >/dev/null 2>&1 \
        || { "${sudo[@]}" apt-get update -qq && "${sudo[@]}" apt-get install -y -qq \
            --no-install-recommends librsvg2-bin >/dev/null; } \
        || die "apt-get install librsvg2-bin failed"
fi
command -v npm >/dev/null 2>&1 || die "npm missing: install it (Debian: apt-get install npm)"

"$VENV/bin/python" -m controller.table.artwork >/dev/null || die "drawing the card artwork failed"
holdout
