"""``ddz-fast serve``: a local web app to play against agents and watch replays.

Needs the ``web`` extra (Starlette and uvicorn): ``pip install "ddz-fast[web]"``.
See docs/web.md.  :func:`create_app` builds the ASGI app (for a test client
or another server), :func:`serve` runs it with uvicorn.
"""
from __future__ import annotations

from .app import create_app, serve

__all__ = ["create_app", "serve"]
