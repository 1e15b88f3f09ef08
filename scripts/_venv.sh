# shellcheck shell=bash
# Sourced by scripts/test and scripts/run: make sure .venv exists and holds the project.
#
# Sets REPO_ROOT and VENV, and leaves the caller in REPO_ROOT. Needs only python3 (3.11+).
# The editable install is skipped when pyproject.toml is unchanged since the last one, which
# is recorded as its sha256 in a stamp file inside the venv (deleting .venv resets everything).

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$REPO_ROOT/.venv"
cd "$REPO_ROOT"

_venv_die() {
    printf '%s: %s\n' "$(basename "$0")" "$*" >&2
    exit 1
}

_venv_create() {
    local python="${PYTHON:-python3}"
    command -v "$python" >/dev/null 2>&1 || _venv_die "$python not found; install Python 3.11+"
    "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
        || _venv_die "$python is $("$python" -V 2>&1); paigow-table needs Python 3.11+"
    printf '==> creating %s\n' "$VENV" >&2
    if ! "$python" -m venv "$VENV"; then
        # A half-made venv (no pip) would be mistaken for a good one on the next run.
        rm -rf "$VENV"
        _venv_die "'$python -m venv' failed (on Debian/Ubuntu: apt-get install python3-venv)"
    fi
}

_venv_bootstrap() {
    local stamp="$VENV/.paigow-install-stamp" want have=""
    [[ -x "$VENV/bin/python" ]] || _venv_create
    "$VENV/bin/python" -c '' 2>/dev/null \
        || _venv_die "$VENV/bin/python does not run; remove .venv and try again"

    want="$("$VENV/bin/python" -c \
        'import hashlib; print(hashlib.sha256(open("pyproject.toml", "rb").read()).hexdigest())')"
    [[ -f "$stamp" ]] && have="$(<"$stamp")"
    [[ "$have" == "$want" ]] && return 0

    printf '==> installing paigow-table into %s\n' "$VENV" >&2
    # Write the stamp only after a successful install, so a failed one is retried next time.
    PIP_NO_INPUT=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
        "$VENV/bin/python" -m pip install --quiet -e '.[test]' \
        || _venv_die "pip install -e '.[test]' failed"
    printf '%s\n' "$want" >"$stamp"
}

_venv_bootstrap
