"""The package's folders are its layers, and imports run one way: down.

Every module-level ``import``/``cimport`` of every module under
``src/ddz_fast`` is read from the sources (imports inside functions are lazy
and allowed to reach up, for optional parts), and checked against the layers
of CONTRIBUTING.md ("Layout"): a module imports only modules of its own
layer or of a lower one, and no import cycle runs among the modules.
"""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
pytestmark = pytest.mark.skipif(not SRC.is_dir(), reason="src/ is not next to the tests (installed wheel run)")

# Lowest first; a module belongs to the first layer with a matching prefix.
LAYERS = [
    ("foundation", ["ddz_fast._version", "ddz_fast.kinds", "ddz_fast.errors", "ddz_fast.pickling",
                    "ddz_fast._util", "ddz_fast.rules", "ddz_fast.cards"]),
    ("move core", ["ddz_fast._core"]),
    ("engine", ["ddz_fast._engine", "ddz_fast.game_values"]),
    ("search", ["ddz_fast._search"]),
    ("public faces", ["ddz_fast.moves", "ddz_fast.game", "ddz_fast.vec", "ddz_fast.actions",
                      "ddz_fast.observation", "ddz_fast.solver", "ddz_fast.pimc", "ddz_fast.convert",
                      "ddz_fast.encode", "ddz_fast.reference", "ddz_fast.reference_game",
                      "ddz_fast.solver_reference", "ddz_fast.bidding", "ddz_fast.arena",
                      "ddz_fast.trajectories", "ddz_fast._legacy", "ddz_fast"]),
    ("consumers", ["ddz_fast.envs", "ddz_fast.compat", "ddz_fast.web", "ddz_fast.train", "ddz_fast.cli",
                   "ddz_fast.__main__"]),
]
IMPORT = re.compile(r"^(?:from\s+(\.*[\w.]*)\s+c?import\s+(.*)|c?import\s+([\w.]+))")


def _modules():
    mods = {}
    for path in sorted((SRC / "ddz_fast").rglob("*")):
        if path.suffix in (".py", ".pyx", ".pxd"):
            parts = path.relative_to(SRC).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            mods.setdefault(".".join(parts), []).append(path)
    return mods


def _layer(mod):
    for i, (_, prefixes) in enumerate(LAYERS):
        # ("ddz_fast" itself, the package's __init__, is matched exactly)
        if any(mod == p or (p != "ddz_fast" and mod.startswith(p + ".")) for p in prefixes):
            return i
    raise AssertionError(f"{mod} is in no layer of tests/test_layout.py (and of CONTRIBUTING.md)")


def _edges():
    mods = _modules()
    edges = {m: set() for m in mods}
    for mod, paths in mods.items():
        for path in paths:
            package = mod if path.stem == "__init__" else mod.rsplit(".", 1)[0]
            text = path.read_text(encoding="utf-8")
            for line in text.splitlines():
                m = IMPORT.match(line)       # (module level only: no indent)
                if not m:
                    continue
                if m.group(3):
                    targets = [m.group(3)]
                else:
                    spec = m.group(1)
                    dots = len(spec) - len(spec.lstrip("."))
                    base = package.split(".")[: len(package.split(".")) - max(dots - 1, 0)] if dots else []
                    name = spec.lstrip(".")
                    target = ".".join(base + ([name] if name else [])) if dots else name
                    names = [n.strip().split(" as ")[0] for n in m.group(2).strip("()\\ ").split(",")]
                    targets = [f"{target}.{n}" for n in names if f"{target}.{n}" in mods] or [target]
                for t in targets:
                    while t not in mods and "." in t:
                        t = t.rsplit(".", 1)[0]
                    if t in mods and t != mod:
                        edges[mod].add(t)
    return edges


def test_every_module_is_in_a_layer():
    for mod in _modules():
        _layer(mod)


def test_imports_run_down_the_layers():
    wrong = [f"{m} ({LAYERS[_layer(m)][0]}) imports {t} ({LAYERS[_layer(t)][0]})"
             for m, ts in _edges().items() for t in sorted(ts) if _layer(t) > _layer(m)]
    assert not wrong, "\n".join(wrong)


def test_no_import_cycle():
    edges = _edges()
    state, stack, cycles = {}, [], []

    def visit(u):
        state[u] = 1
        stack.append(u)
        for v in sorted(edges[u]):
            if state.get(v) == 1:
                cycles.append(stack[stack.index(v):] + [v])
            elif v not in state:
                visit(v)
        stack.pop()
        state[u] = 2

    for u in sorted(edges):
        if u not in state:
            visit(u)
    assert not cycles, cycles


def test_the_reader_sees_the_known_imports():
    """The import reader is not blind: it finds edges that are known to exist."""
    edges = _edges()
    assert "ddz_fast._core.kernels" in edges["ddz_fast._core.move"]
    assert "ddz_fast._engine.engine" in edges["ddz_fast._engine.vec"]
    assert "ddz_fast.envs.table" in edges["ddz_fast.envs.aec"]


def test_importing_the_package_loads_no_environment_module():
    code = "import ddz_fast, sys; print([m for m in sys.modules if m.startswith('ddz_fast.envs')])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ})
    assert out.stdout.strip() == "[]"


def test_importing_the_package_loads_no_torch():
    """ddz_fast.train (PyTorch) is imported on demand only: not by the
    package, the arena, the command line or the environments."""
    code = ("import ddz_fast, ddz_fast.arena, ddz_fast.cli, ddz_fast.envs, sys; "
            "print([m for m in sys.modules if m == 'torch' or m.startswith('ddz_fast.train')])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ})
    assert out.stdout.strip() == "[]"
