#!/usr/bin/env bash
# Make sure Debian's headless browser is there for the display's end-to-end test:
# chromium and its matching chromedriver (Selenium drives it). Idempotent: it installs only
# what is missing, and does nothing at all when both are present. Needs root (or sudo) and apt;
# without them it says so and leaves the test to skip.
set -euo pipefail

missing=()
[[ -x /usr/bin/chromium ]] || missing+=(chromium)
[[ -x /usr/bin/chromedriver ]] || missing+=(chromium-driver)
((${#missing[@]})) || exit 0

sudo=()
if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        sudo=(sudo -n)
    else
        printf 'browser_setup: %s missing and not root; the browser test will skip\n' \
            "${missing[*]}" >&2
        exit 0
    fi
fi
if ! command -v apt-get >/dev/null 2>&1; then
    printf 'browser_setup: no apt-get; install %s by hand\n' "${missing[*]}" >&2
    exit 0
fi
printf '==> installing %s (apt)\n' "${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
