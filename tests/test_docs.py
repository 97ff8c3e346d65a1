"""Every example in docs/*.md and README.md is a doctest: they must run as written.

A document's examples run with ``tmp`` (a fresh temporary directory) in their
namespace; the optional packages a document uses are required here (missing
ones skip, and fail in CI, see tests/optional.py).
"""
import doctest
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
         "douzero.md": ["douzero.env.env"],
         "README.md": ["pyarrow"]}
# Documents that must hold examples (the others may be prose only).
MIN_EXAMPLES = {"envs.md": 50, "interop.md": 20, "solver.md": 15, "datasets.md": 10, "README.md": 5,
                "douzero.md": 25, "arena.md": 25, "actions.md": 20}


@pytest.mark.skipif(not (ROOT / "docs").exists(), reason="docs/ is not next to the tests (installed wheel run)")
@pytest.mark.parametrize("doc", DOCS, ids=[d.name for d in DOCS])
def test_doc_examples_run(doc, tmp_path):
    for name in NEEDS.get(doc.name, []):
        require(name)
    result = doctest.testfile(str(doc), module_relative=False, optionflags=doctest.ELLIPSIS,
                              globs={"tmp": tmp_path})
    assert result.attempted >= MIN_EXAMPLES.get(doc.name, 0)
    assert result.failed == 0


def test_every_document_with_examples_is_listed():
    """A new document with examples gets a minimum count, so losing them is noticed."""
    for doc in DOCS:
        if ">>> " in doc.read_text(encoding="utf-8"):
            assert doc.name in MIN_EXAMPLES, doc.name
