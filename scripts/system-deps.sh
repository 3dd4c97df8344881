#!/usr/bin/env bash
# System packages the full test suite uses: Debian's Chromium (browser tests) and
# PostgreSQL (server storage tests), nginx (the cluster's proxy test). Installed with apt-get when missing and we are root;
# otherwise says what to install (those tests then skip, saying why).
set -u
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v chromedriver >/dev/null 2>&1 || need+=(chromium-driver)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need+=(nginx-light)  # the cluster's proxy test
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing system packages: ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null \
    || { echo "apt-get could not install ${need[*]}" >&2; exit 1; }
else
  echo "note: install ${need[*]} (e.g. sudo apt-get install ${need[*]}) to run the browser and PostgreSQL tests; they are skipped without them." >&2
fi
