#!/usr/bin/env bash
# The README's Python commands, run as a user runs them (issue "Python": `import dpfl` after the
# README's build on a clean clone).
#   readme_import_test.sh SOURCE_DIR BUILD_DIR PYTHON VERSION
# 1. The README's line `PYTHONPATH=build/python python3 -c "import dpfl; print(dpfl.__version__)"`
#    is read from README.md (so the two cannot drift), `build/` is replaced by BUILD_DIR and
#    `python3` by PYTHON (the interpreter the module was built for; /usr/bin/python3 on Debian),
#    and it is run from SOURCE_DIR with a minimal environment: it must print VERSION.
# 2. The README's install line (`cmake --install build --component python --prefix …`) into a
#    temporary prefix: the installed package imports without the build tree and is the one loaded.
set -euo pipefail
src="$1" build="$2" py="$3" version="$4"
fail() { echo "readme_import_test: $*" >&2; exit 1; }

line=$(grep -E '^PYTHONPATH=build/python python3 -c "import dpfl; print\(dpfl.__version__\)"' "$src/README.md" || true)
[ "$(printf '%s\n' "$line" | grep -c .)" = 1 ] || fail "README.md must have exactly one line starting with: PYTHONPATH=build/python python3 -c \"import dpfl; print(dpfl.__version__)\""
cmd=${line%%#*}                       # the command, without a trailing comment
cmd=${cmd//build\//$build/}
cmd=${cmd/ python3 / $py }
out=$(cd "$src" && env -i PATH=/usr/bin:/bin HOME="${HOME:-/tmp}" bash -c "$cmd") || fail "the README's import command failed: $cmd"
[ "$out" = "$version" ] || fail "the README's import command printed '$out', expected the project version '$version'"
echo "README import: $out"

install_line=$(grep -E '^(sudo )?cmake --install build --component python --prefix ' "$src/README.md" || true)
[ -n "$install_line" ] || fail "README.md must show how to install the Python package (cmake --install build --component python --prefix P)"
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --component python --prefix "$prefix" >/dev/null || fail "cmake --install --component python failed"
site=$(find "$prefix" -type d -name dpfl -path '*-packages/dpfl' | head -1)
[ -n "$site" ] || fail "no <prefix>/lib/python3.X/*-packages/dpfl after cmake --install"
got=$(cd / && env -i PATH=/usr/bin:/bin PYTHONPATH="$(dirname "$site")" "$py" -c \
      "import dpfl, dpfl.quantizers, dpfl.accounting, dpfl.certificate, dpfl.check; print(dpfl.__version__, dpfl.__file__)") \
  || fail "the installed package does not import"
[ "${got%% *}" = "$version" ] || fail "installed package version '${got%% *}', expected '$version'"
case "${got#* }" in "$prefix"/*) ;; *) fail "imported ${got#* }, not the installed copy under $prefix" ;; esac
echo "installed import: $got"
