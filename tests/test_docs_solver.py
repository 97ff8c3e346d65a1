"""docs/solver.md's examples are doctests: they must run as written."""
import doctest
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[1] / "docs" / "solver.md"


@pytest.mark.skipif(not DOC.exists(), reason="docs/ is not next to the tests (installed wheel run)")
def test_solver_doc_examples():
    result = doctest.testfile(str(DOC), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 15
    assert result.failed == 0
