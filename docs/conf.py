"""Sphinx configuration: the guides (docs/*.md, through myst-parser) and the
API reference (docs/reference/*.rst, autodoc over the public modules).

Build (from the repository root, with ddz_fast importable: installed, or
built in place with ``src`` on ``PYTHONPATH``)::

    python -m sphinx -W --keep-going -b html docs docs/_build/html

The compiled modules are built with ``embedsignature=True``, so autodoc reads
their signatures from the first line of each docstring.
"""
from __future__ import annotations

import importlib
import inspect
import re
from typing import Any

import ddz_fast

project = "ddz-fast"
author = "ddz-fast developers"
copyright = "ddz-fast developers"
release = ddz_fast.__version__
version = release

extensions = ["sphinx.ext.autodoc", "myst_parser"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build"]

# Names in signatures without their module path (``Game``, not
# ``ddz_fast._engine.game.Game``): the private modules are an implementation detail.
python_use_unqualified_type_names = True
autodoc_default_options = {"member-order": "bysource"}
autodoc_typehints = "signature"
autodoc_preserve_defaults = True

# Headings of the guides become link targets (``envs.md#observation``).
myst_heading_anchors = 3

html_theme = "alabaster"
html_title = f"ddz-fast {release}"
html_static_path: list[str] = []

# The guides' examples are doctests (tests/test_docs.py runs them).  Some are
# written bare, as a doctest reads them; Markdown would take a bare ``>>>``
# for nested block quotes.  Each bare run of doctest lines is shown as a code
# block, without changing the files.
_DOCTEST_RUN = re.compile(r"(?m)^(>>> .*\n(?:(?:>>> |\.\.\. ).*\n|(?!```)(?!\s*\n).+\n)*)")


def _fence_bare_doctests(app: object, docname: str, source: list[str]) -> None:
    text = source[0]
    if ">>> " not in text:
        return
    # Only the text outside fences is rewritten (the odd parts are the fenced blocks).
    parts = re.split(r"(?m)(^```.*\n(?:.*\n)*?^```[ \t]*(?:\n|\Z))", text)
    for i in range(0, len(parts), 2):
        parts[i] = _DOCTEST_RUN.sub(lambda m: "```pycon\n" + m.group(1) + "```\n", parts[i])
    source[0] = "".join(parts)


# Cython embeds ``Move(kind, cards=None, rules='standard', *)`` for
# ``Move.__init__(self, kind, cards=None, *, rules="standard")``: the bare
# ``*`` lands after the keyword-only parameter.  While it does, show the
# signature as written.
_SIGNATURES = {"ddz_fast.moves.Move": "(kind, cards=None, *, rules='standard')"}


def _fix_signature(app: object, what: str, name: str, obj: object, options: object,
                   signature: str | None, return_annotation: str | None) -> tuple[str | None, str | None] | None:
    if name in _SIGNATURES and signature and signature.replace(" ", "").endswith(",*)"):
        return _SIGNATURES[name], return_annotation
    return None


# The docstrings name objects as the package exports them (``ddz_fast.Game``),
# and signatures by where they are defined (``ddz_fast._engine.game.Game``); the
# reference describes each object once, in its public module
# (``ddz_fast.game.Game``).  A Python reference that finds no description
# goes to the description of the same object under its public name.
_PLAIN = (int, float, str, bytes, bool, tuple, type(None))


def _lookup(name: str) -> Any:
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        try:
            for attr in parts[i:]:
                # (from a class, the attribute as stored: a classmethod is
                # then the same object on every lookup)
                obj = inspect.getattr_static(obj, attr) if isinstance(obj, type) else getattr(obj, attr)
        except AttributeError:
            return None
        return obj
    return None


def _resolve_by_identity(app: Any, env: Any, node: Any, contnode: Any) -> Any:
    if node.get("refdomain") != "py" or not node.get("reftarget", "").strip():
        return None
    domain = env.get_domain("py")
    described = env.temp_data.get("ddz_described")
    if described is None:  # object identity -> the name it is described under
        described = {}
        for name in sorted(domain.objects, key=len, reverse=True):
            obj = _lookup(name)
            if obj is not None and not isinstance(obj, _PLAIN):
                described[id(obj)] = (name, obj)
        env.temp_data["ddz_described"] = described
    target = node["reftarget"].lstrip("~.")
    scope = [p for p in (node.get("py:module"), node.get("py:class")) if p]
    for prefix in (".".join(scope), scope[0] if scope else "", ""):
        obj = _lookup(f"{prefix}.{target}" if prefix else target)
        if obj is not None and id(obj) in described and described[id(obj)][1] is obj:
            return domain.resolve_xref(env, node["refdoc"], app.builder, node["reftype"],
                                       described[id(obj)][0], node, contnode)
    return None


def setup(app: object) -> None:
    app.connect("missing-reference", _resolve_by_identity)  # type: ignore[attr-defined]
    app.connect("source-read", _fence_bare_doctests)  # type: ignore[attr-defined]
    app.connect("autodoc-process-signature", _fix_signature)  # type: ignore[attr-defined]
