#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (never a browser downloaded by Playwright).
# Install it when missing and we may (root with apt-get); otherwise say how.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium for the browser tests..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
else
  echo "Chromium is missing: run 'sudo apt-get install -y chromium' to run the browser tests." >&2
fi
