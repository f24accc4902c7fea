#!/usr/bin/env bash
# Installs the Debian packages the tests need, when they are missing (Chromium for end-to-end tests).
# ClamAV for the antivirus tests (started per test file by scripts/services/start-clamd.ts); Dovecot joins with the mailbox.
set -euo pipefail

PACKAGES=(chromium fonts-liberation clamav-daemon clamdscan clamav-testfiles)

missing=()
for package in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
  echo "Missing Debian packages: ${missing[*]}. Install them with: sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi
echo "Installing Debian packages: ${missing[*]}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
