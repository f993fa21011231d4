#!/usr/bin/env bash
# Installs every Debian package dpfl needs to build and test (idempotent; apt-get update first).
# Nothing else is fetched at build time.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config clang
  libclang-rt-14-dev                   # libFuzzer + sanitizer runtimes for the clang fuzz build
  zlib1g-dev                           # gzip IDX data sets
  libboost-dev          # Boost.Multiprecision, Boost.Math
  libgmp-dev libmpfr-dev libmpfi-dev   # exact rationals, MPFR, rigorous intervals
  libgtest-dev libgmock-dev librapidcheck-dev libbenchmark-dev
  libcli11-dev nlohmann-json3-dev libfmt-dev
  librandom123-dev libsodium-dev       # counter-based RNG, X25519/ChaCha20
  libtorch-dev                         # LibTorch 1.13 CPU: benchmark baselines, FL loop
  gnuplot-nox                          # plots (accuracy.png, loss.png)
  dataset-fashion-mnist                # default data set (IDX files under /usr/share/datasets)
)

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "install-deps.sh: run as root (or install sudo)" >&2; exit 1; }
  SUDO="sudo"
fi

export DEBIAN_FRONTEND=noninteractive
echo "install-deps: apt-get update" >&2
$SUDO apt-get update -qq
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}" >&2
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "install-deps: all ${#PACKAGES[@]} packages already installed" >&2
fi
