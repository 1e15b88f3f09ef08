#!/usr/bin/env bash
# The installed product, apart from the checkout: build the wheel, install it into a fresh
# virtual environment under a temporary folder (its dependencies from the package index pip
# uses), and run five commands from another folder with an empty per-user cache, so the
# shipped config data is what they read and the demo's card artwork is drawn on first use:
#
#   paigow ways; paigow set poker ...; paigow settle ROUND.json; paigow analyze tiles;
#   paigow demo --rounds 1 --no-display
#
# Exits non-zero on the first failure with one line naming it.  Needs python3 (3.11+), and npm
# and rsvg-convert for the artwork (scripts/test_assets.sh installs rsvg-convert).
# KEEP=1 keeps the temporary folder.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/_venv.sh"

die() {
    printf 'wheel_check: FAILED: %s\n' "$*" >&2
    exit 1
}

work="$(mktemp -d "${TMPDIR:-/tmp}/paigow-wheel.XXXXXX")"
if [[ "${KEEP:-0}" == 1 ]]; then
    printf 'wheel_check: keeping %s\n' "$work" >&2
else
    trap 'rm -rf "$work"' EXIT
fi
export PIP_NO_INPUT=1 PIP_DISABLE_PIP_VERSION_CHECK=1

printf '==> building the wheel\n' >&2
# From a copy of what the wheel is made of: an in-tree build would leave build/ in the
# checkout, and a stale build/lib would put deleted modules into later wheels.
mkdir -p "$work/src"
tar --exclude=__pycache__ -cf - pyproject.toml README.md controller firmware_interfaces vision \
    config | tar -xf - -C "$work/src" || die "copying the sources to $work/src"
"$VENV/bin/python" -m pip wheel "$work/src" --no-deps --quiet -w "$work/dist" \
    || die "building the wheel"
wheels=("$work"/dist/paigow_table-*.whl)
[[ -f "${wheels[0]}" ]] || die "pip wheel made no paigow_table wheel in $work/dist"

printf '==> installing %s into a fresh venv\n' "$(basename "${wheels[0]}")" >&2
python="${PYTHON:-python3}"
"$python" -m venv "$work/venv" || die "$python -m venv $work/venv"
"$work/venv/bin/python" -m pip install --quiet "${wheels[0]}" || die "pip install of the wheel"

# Away from the checkout: another folder, nothing of the repo on the path, no config override,
# an empty per-user cache (set only for the commands, so pip above keeps its own cache).
mkdir -p "$work/run" "$work/cache"
cp tests/data/round_classic.json "$work/run/round.json"
cd "$work/run"
unset PYTHONPATH PAIGOW_CONFIG PAIGOW_ASSETS PAIGOW_CACHE
paigow="$work/venv/bin/paigow"

out=""
check() {
    local name="$1"
    shift
    printf '==> paigow %s\n' "$*" >&2
    if ! out="$(XDG_CACHE_HOME="$work/cache" "$paigow" "$@" 2>&1)"; then
        printf '%s\n' "$out" | tail -n 20 >&2
        die "$name: 'paigow $*' exited non-zero (from $PWD, installed wheel)"
    fi
    printf '%s\n' "$out" | tail -n 3 >&2
}

check "house ways" ways
grep -q "^tiles  *foxwoods" <<<"$out" || die "house ways: 'paigow ways' lists no shipped tile way"
check "set" set poker As Kd Qh 9s 9c 4d Jk
check "settle" settle round.json
check "analyze" analyze tiles --way foxwoods
check "demo" demo --rounds 1 --no-display
[[ -f "$work/cache/paigow/assets/cards/2color/Jk.png" ]] \
    || die "demo: no card artwork was drawn into the per-user cache $work/cache/paigow"
printf 'wheel_check: the installed wheel ran all five commands from %s\n' "$PWD" >&2
