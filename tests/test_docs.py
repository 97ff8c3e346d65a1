"""Every example in docs/*.md and README.md is a doctest: they must run as written.

A document's examples start from an empty namespace, as in a fresh session
(the harness gives them no names: a block that needs a directory makes its
own), in a fresh temporary working directory; the optional packages a
document uses are required here (missing ones skip, and fail in CI, see
tests/optional.py).
"""
import doctest
import importlib
import pkgutil
import re
import sys
from pathlib import Path

import pytest

# (The packaging check runs this file with --import-mode=importlib, where the
# tests folder is not on sys.path.)
sys.path.insert(0, str(Path(__file__).resolve().parent))
from optional import require  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
NEEDS = {"envs.md": ["gymnasium", "pettingzoo"], "datasets.md": ["pyarrow", "pandas"],
         "douzero.md": ["douzero.env.env", "torch"], "web.md": ["starlette", "httpx"],
         "train.md": ["torch"]}
# Documents that must hold examples (the others may be prose only).
MIN_EXAMPLES = {"envs.md": 50, "interop.md": 20, "solver.md": 15, "datasets.md": 10, "README.md": 5,
                "douzero.md": 25, "arena.md": 25, "moves.md": 20, "game.md": 10, "actions.md": 20, "web.md": 10,
                "rules.md": 20, "train.md": 8}


@pytest.mark.skipif(not (ROOT / "docs").exists(), reason="docs/ is not next to the tests (installed wheel run)")
@pytest.mark.parametrize("doc", DOCS, ids=[d.name for d in DOCS])
def test_doc_examples_run(doc, tmp_path, monkeypatch):
    for name in NEEDS.get(doc.name, []):
        require(name)
    result = _run_examples(doc, tmp_path, monkeypatch)
    assert result.attempted >= MIN_EXAMPLES.get(doc.name, 0)
    assert result.failed == 0


def _run_examples(doc, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)          # (files a block writes land here)
    return doctest.testfile(str(doc), module_relative=False, optionflags=doctest.ELLIPSIS,
                            globs={}, verbose=False, report=False)


def test_the_examples_get_no_names_from_the_harness(tmp_path, monkeypatch):
    """A block that uses a name it did not define fails here, as it would
    pasted into a fresh session."""
    doc = tmp_path / "uses_tmp.md"
    doc.write_text("```python\n>>> tmp\n\n```\n", encoding="utf-8")
    result = _run_examples(doc, tmp_path, monkeypatch)
    assert (result.attempted, result.failed) == (1, 1)


_BLOCK = re.compile(r"^```(?:python|pycon)\n(.*?)^```", re.M | re.S)


@pytest.mark.skipif(not (ROOT / "docs").exists(), reason="docs/ is not next to the tests (installed wheel run)")
@pytest.mark.parametrize("doc", DOCS, ids=[d.name for d in DOCS])
def test_each_example_block_runs_alone_in_a_fresh_session(doc, tmp_path, monkeypatch):
    """Each block runs pasted alone, as a reader pastes it: it makes the
    names and files it uses (in the current directory)."""
    for name in NEEDS.get(doc.name, []):
        require(name)
    monkeypatch.chdir(tmp_path)
    parser = doctest.DocTestParser()
    failed = []
    for i, block in enumerate(_BLOCK.findall(doc.read_text(encoding="utf-8"))):
        test = parser.get_doctest(block, {}, f"{doc.name} block {i}", str(doc), 0)
        if test.examples:
            runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
            if runner.run(test).failed:
                failed.append(i)
    assert failed == [], f"blocks of {doc.name} that need names from earlier blocks: {failed}"


def test_every_document_with_examples_is_listed():
    """A new document with examples gets a minimum count, so losing them is noticed."""
    for doc in DOCS:
        if ">>> " in doc.read_text(encoding="utf-8"):
            assert doc.name in MIN_EXAMPLES, doc.name


# ---------------------------------------------------------------------------
# The API reference (docs/reference/*.rst, built by Sphinx: CONTRIBUTING.md,
# "Documentation") covers the public API.  Read from the pages' directives:
# ``automodule`` with ``:members:`` covers the module's ``__all__`` (less
# ``:exclude-members:``); the other ``auto*`` and ``py:*`` directives cover
# the one object they name.

REFERENCE = ROOT / "docs" / "reference"
_DIRECTIVE = re.compile(r"^\.\. (auto\w+|py:\w+)::\s*(\S+)")
_OPTION = re.compile(r"^\s+:([\w-]+):\s*(.*)$")
# Public-named modules without a page of their own: the command line; the
# plain values whose names ddz_fast.game exports and its page describes; the
# compat package, whose modules have pages.
NO_PAGE = {"ddz_fast.cli", "ddz_fast.__main__", "ddz_fast.game_values", "ddz_fast.compat"}


def _reference_directives():
    """(directive, target, options) of every directive of the reference pages,
    targets qualified with the page's current module."""
    out = []
    for page in sorted(REFERENCE.glob("*.rst")):
        module = None
        for line in page.read_text(encoding="utf-8").splitlines():
            m = _DIRECTIVE.match(line)
            if m:
                kind, target = m.groups()
                if kind in ("automodule", "py:module", "py:currentmodule"):
                    module = target
                elif not target.startswith("ddz_fast"):
                    target = f"{module}.{target.split('(')[0]}"
                out.append((kind, target.split("(")[0], {}))
            elif out and (o := _OPTION.match(line)):
                out[-1][2][o.group(1)] = o.group(2)
    return out


def _described_names():
    names = set()
    for kind, target, options in _reference_directives():
        if kind == "automodule":
            if "members" in options:
                excluded = {n.strip() for n in options.get("exclude-members", "").split(",")}
                listed = [n.strip() for n in options["members"].split(",") if n.strip()]
                module = importlib.import_module(target)
                names |= {f"{target}.{n}" for n in (listed or module.__all__) if n not in excluded}
        elif kind not in ("py:module", "py:currentmodule"):
            names.add(target)
    return names


def _resolve(name):
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for attr in parts[i:]:
            obj = getattr(obj, attr)
        return obj
    raise ImportError(name)


@pytest.mark.skipif(not REFERENCE.exists(), reason="docs/ is not next to the tests (installed wheel run)")
def test_every_public_module_has_a_reference_page():
    import ddz_fast

    public = {m.name for m in pkgutil.walk_packages(ddz_fast.__path__, "ddz_fast.")
              if not any(part.startswith("_") for part in m.name.split("."))}
    documented = {target for kind, target, _ in _reference_directives() if kind == "automodule"}
    assert sorted(public - NO_PAGE - documented) == []


@pytest.mark.skipif(not REFERENCE.exists(), reason="docs/ is not next to the tests (installed wheel run)")
def test_every_name_of_the_package_is_described_in_the_reference():
    """Each name ``import ddz_fast`` exports is described once somewhere: on
    the package's page or on the page of the module it comes from."""
    import ddz_fast

    described = [_resolve(name) for name in _described_names()]
    missing = [n for n in ddz_fast.__all__ if not n.startswith("__")
               and not any(obj is getattr(ddz_fast, n) for obj in described)]
    assert missing == []


@pytest.mark.skipif(not (ROOT / "benchmarks").exists(), reason="benchmarks/ is not next to the tests")
def test_the_solver_table_shows_puzzles_the_command_line_solves(capsys):
    """Every puzzle of the solver table in benchmarks/README.md is written in
    our notation: ``ddz-fast solve`` takes it, and it is one of the
    published puzzles with the published answer."""
    from ddz_fast import cli
    from ddz_fast.solver_reference import PUBLISHED_PUZZLES

    text = (ROOT / "benchmarks" / "README.md").read_text(encoding="utf-8")
    table = text.split("### Endgame solver against other solvers", 1)[1]
    rows = re.findall(r"^\| (\w+) vs (\w+) \| (first|second) wins \|", table, re.M)
    assert sorted((a, b, w == "first") for a, b, w in rows) == sorted(PUBLISHED_PUZZLES)
    for first, second, who in rows:
        assert cli.main(["solve", first, second, "--rules", "strict"]) == 0
        out = capsys.readouterr().out
        assert ("hand 1 to move: hand 1 wins" if who == "first" else "hand 1 to move: hand 1 loses") in out
