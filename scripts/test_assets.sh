#!/usr/bin/env bash
# Test assets for vision: real card artwork nobody here drew. The CC0 deck (art by Adrian
# Kennard) in the npm package @heruka_urgyen/react-playing-cards: four styles of 53 faces,
# rendered to PNG with rsvg-convert (Debian librsvg2-bin; CairoSVG mis-renders them).
#
#   .cache/assets/cards/<style>/<code>.png   style: 2color 4color 2color-bf 4color-bf,
#                                            code: As Td ... Jk (the names `vision calibrate
#                                            cards DIR` reads)
#   .cache/assets/decks/<style>-<key>.npz    their calibrations (made with .venv's python)
#
# Idempotent and quick when done: a stamp records the package and render settings, and
# nothing is fetched or drawn while it matches. Installs librsvg2-bin with apt-get when
# rsvg-convert is missing (root or sudo needed); fetches the package with `npm pack`.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="$ROOT/.cache/assets"
PACKAGE="@heruka_urgyen/react-playing-cards@0.5.0"
WIDTH=250
STYLES=(2color 4color 2color-bf 4color-bf)
STAMP="$CACHE/cards/.stamp"
WANT="$PACKAGE width=$WIDTH styles=${STYLES[*]}"

die() {
    printf 'test_assets: %s\n' "$*" >&2
    exit 1
}

# Deck calibrations of the four styles, kept in .cache/assets/decks and keyed by the faces and
# the vision code (python -m vision.cards.cache); quick when kept, so run every time.
calibrate_decks() {
    local python="$ROOT/.venv/bin/python"
    [[ -x "$python" ]] || return 0
    "$python" -m vision.cards.cache "$CACHE/cards" "$CACHE/decks" \
        || die "calibrating the test decks failed"
}

if [[ -f "$STAMP" && "$(<"$STAMP")" == "$WANT" ]]; then
    calibrate_decks
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

mkdir -p "$CACHE/npm"
tarball="$CACHE/npm/heruka_urgyen-react-playing-cards-0.5.0.tgz"
if [[ ! -f "$tarball" ]]; then
    printf '==> fetching %s (npm pack)\n' "$PACKAGE" >&2
    (cd "$CACHE/npm" && npm pack --silent "$PACKAGE" >/dev/null) || die "npm pack $PACKAGE failed"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tar -xzf "$tarball" -C "$work"

printf '==> rendering %d styles of 53 faces to %s\n' "${#STYLES[@]}" "$CACHE/cards" >&2
for style in "${STYLES[@]}"; do
    src="$work/package/src/images/$style"
    [[ -d "$src" ]] || die "the package has no $style faces"
    out="$CACHE/cards/$style"
    rm -rf "$out.tmp"
    mkdir -p "$out.tmp"
    for svg in "$src"/*.svg; do
        face="$(basename "$svg" .svg)"            # AS, TD, 2J (the joker)
        if [[ "$face" == 2J ]]; then
            code=Jk
        else
            code="${face:0:1}$(tr '[:upper:]' '[:lower:]' <<<"${face:1:1}")"
        fi
        rsvg-convert -w "$WIDTH" "$svg" -o "$out.tmp/$code.png" || die "rsvg-convert $svg failed"
    done
    count=$(find "$out.tmp" -name '*.png' | wc -l)
    [[ "$count" -eq 53 ]] || die "$style: rendered $count faces, expected 53"
    rm -rf "$out"
    mv "$out.tmp" "$out"
done
printf '%s\n' "$WANT" >"$STAMP"
calibrate_decks
