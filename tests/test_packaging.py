"""Packaging: the version is single-sourced, the metadata and entry point are
right, the typed files and Cython sources ship, and the compiled modules are
real extension modules.

With ``DDZ_FAST_EXPECT_INSTALLED=1`` (set by .ci/check_packaging.sh and by
cibuildwheel's test step) the run must be against an installed, non-editable
copy: ``ddz_fast`` must not come from the source tree's ``src/``.
"""
import importlib
import importlib.machinery
import importlib.metadata
import json
import os
import re
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import ddz_fast

EXPECT_INSTALLED = os.environ.get("DDZ_FAST_EXPECT_INSTALLED", "") not in ("", "0")
SOURCE_TREE = Path(__file__).resolve().parents[1]
PKG = Path(ddz_fast.__file__).resolve().parent

# Compiled modules with a Python API need a stub (.pyi) next to them; these
# have none (C-level only, cimported by the others).
NO_PYTHON_API = {"_core.kernels"}


def _dist():
    try:
        return importlib.metadata.distribution("ddz-fast")
    except importlib.metadata.PackageNotFoundError:
        if EXPECT_INSTALLED:
            raise
        pytest.skip("ddz-fast is not installed (running from a bare source tree)")


def _compiled_modules():
    """Dotted names (below ddz_fast) of the extension modules in the package."""
    names = set()
    for f in PKG.rglob("*"):
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:  # most specific first
            if f.name.endswith(suffix):
                names.add(".".join(f.relative_to(PKG).parts)[: -len(suffix)])
                break
    return sorted(names)


def _path(name):
    """The package-relative path of compiled module ``name``, without suffix."""
    return PKG.joinpath(*name.split("."))


def test_version_is_single_sourced():
    from ddz_fast import _version

    assert ddz_fast.__version__ == _version.__version__
    assert re.fullmatch(r"\d+\.\d+\.\d+((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?", ddz_fast.__version__)


def test_installed_metadata_version_matches():
    _dist()
    assert importlib.metadata.version("ddz-fast") == ddz_fast.__version__


def test_metadata():
    meta = _dist().metadata
    assert meta["Name"] == "ddz-fast"
    assert meta["Requires-Python"] == ">=3.10"
    assert meta.get("License-Expression") == "MIT"
    requires = _dist().requires or []
    assert any(re.match(r"numpy\b", r) for r in requires)


def test_console_script():
    eps = [ep for ep in _dist().entry_points if ep.group == "console_scripts"]
    assert [(ep.name, ep.value) for ep in eps] == [("ddz-fast", "ddz_fast.cli:main")]
    assert callable(eps[0].load())


def test_cli_version_runs():
    out = subprocess.run([sys.executable, "-m", "ddz_fast", "--version"],
                         capture_output=True, text=True, timeout=60, check=True)
    assert ddz_fast.__version__ in out.stdout


def test_compiled_modules_are_extensions():
    compiled = _compiled_modules()
    expected = {"_core.move", "_core.kernels", "_core.registry", "_core.movelist", "_core.entry",
                "_util.checks", "_util.rng", "_engine.engine", "_engine.vec", "_search.solver"}
    assert expected <= set(compiled), compiled
    for name in compiled:
        mod = importlib.import_module(f"ddz_fast.{name}")
        assert Path(mod.__file__).resolve().parent == _path(name).parent


def test_typed_files_ship():
    assert (PKG / "py.typed").is_file()
    for name in _compiled_modules():
        if name not in NO_PYTHON_API:
            assert _path(name).with_suffix(".pyi").is_file(), f"compiled module {name} has no stub .pyi"


def test_cython_sources_ship():
    for name in _compiled_modules():
        assert _path(name).with_suffix(".pyx").is_file(), name
    for name in ("_core.move", "_core.kernels", "_core.registry", "_core.movelist", "_core.entry", "_core.bits",
                 "_engine.engine"):
        assert _path(name).with_suffix(".pxd").is_file(), name


@pytest.mark.skipif(not EXPECT_INSTALLED, reason="set DDZ_FAST_EXPECT_INSTALLED=1 to check an installed copy")
def test_runs_against_the_installed_package():
    src = SOURCE_TREE / "src"
    assert not PKG.is_relative_to(src.resolve()), f"ddz_fast was imported from the source tree: {PKG}"
    site_dirs = {Path(sysconfig.get_paths()[k]).resolve() for k in ("purelib", "platlib")}
    assert PKG.parent in site_dirs, f"ddz_fast at {PKG} is not in site-packages {sorted(map(str, site_dirs))}"
    dist = _dist()
    direct = dist.read_text("direct_url.json")
    if direct:
        assert not json.loads(direct).get("dir_info", {}).get("editable", False), "an editable install"
    files = {str(f).replace("\\", "/") for f in dist.files or ()}
    for name in ("ddz_fast/py.typed", "ddz_fast/_core/move.pyi", "ddz_fast/_core/registry.pyi",
                 "ddz_fast/_core/movelist.pyi", "ddz_fast/_core/entry.pyi", "ddz_fast/_engine/engine.pyi",
                 "ddz_fast/_util/rng.pyi", "ddz_fast/_util/checks.pyi",
                 "ddz_fast/envs/__init__.py", "ddz_fast/envs/aec.py", "ddz_fast/envs/single.py",
                 "ddz_fast/train/__init__.py", "ddz_fast/train/models.py", "ddz_fast/train/agent.py"):
        assert name in files, f"{name} is not in the wheel's RECORD"
    assert any(f.startswith("ddz_fast-") and f.endswith(".dist-info/licenses/LICENSE") for f in files), files
