"""docs/douzero.md's examples are doctests: they must run as written (they
call the real douzero package, as CI installs it)."""
import doctest
from pathlib import Path

import pytest

from optional import require

DOC = Path(__file__).resolve().parents[1] / "docs" / "douzero.md"


@pytest.mark.skipif(not DOC.exists(), reason="docs/ is not next to the tests (installed wheel run)")
def test_douzero_doc_examples():
    require("douzero.env.env")
    result = doctest.testfile(str(DOC), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 25
    assert result.failed == 0
