#!/usr/bin/env bash
# Installs the Debian packages the tests need, when they are missing (Chromium for end-to-end tests).
# ClamAV for the antivirus tests (started per test file by scripts/services/start-clamd.ts); Dovecot for the
# mailbox tests (started per test file by scripts/services/start-dovecot.ts), whose mail belongs to a `vmail` user.
# qpdf and heif-enc (libheif-examples) make the file-decoding tests' files: password-protected PDFs and HEIC photos.
set -euo pipefail

PACKAGES=(chromium fonts-liberation clamav-daemon clamdscan clamav-testfiles dovecot-imapd qpdf libheif-examples)

missing=()
for package in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
need_vmail=false
id -u vmail >/dev/null 2>&1 || need_vmail=true
[ ${#missing[@]} -eq 0 ] && [ "$need_vmail" = false ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  [ ${#missing[@]} -eq 0 ] || echo "Missing Debian packages: ${missing[*]}. Install them with: sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
  [ "$need_vmail" = false ] || echo "Missing the vmail user Dovecot delivers test mail as. Create it with: sudo useradd --system --no-create-home --shell /usr/sbin/nologin vmail" >&2
  exit 1
fi
if [ ${#missing[@]} -gt 0 ]; then
  if ! command -v apt-get >/dev/null; then
    echo "Missing Debian packages: ${missing[*]}, and apt-get is not available to install them" >&2
    exit 1
  fi
  echo "Installing Debian packages: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if [ "$need_vmail" = true ]; then
  echo "Creating the vmail system user (owner of the test IMAP server's mail)"
  useradd --system --no-create-home --shell /usr/sbin/nologin vmail
fi
