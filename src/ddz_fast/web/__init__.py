"""``ddz-fast serve``: a local web app to play against agents and watch replays.

Needs the ``web`` extra (Starlette and uvicorn): ``pip install "ddz-fast[web]"``.
See docs/web.md.  :func:`create_app` builds the ASGI app, which
``ddz-fast serve`` runs with uvicorn (a test client or another ASGI server
can run it too).
"""
from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]
