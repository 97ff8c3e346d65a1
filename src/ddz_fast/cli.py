"""The ``ddz-fast`` command line."""
from __future__ import annotations

import argparse
import json
import sys
from typing import List, Optional

from . import __version__
from ._api import legal_moves, parse_move
from .rules import PRESETS

__all__ = ["main"]


def _cmd_moves(args: argparse.Namespace) -> int:
    last = None
    if args.last is not None:
        last = parse_move(args.last, args.last_kind, rules=args.rules)
    moves = legal_moves(args.hand, last, rules=args.rules)
    if args.json:
        out = [
            {"kind": m.kind.name, "cards": m.cards, "rank": m.rank, "length": m.length}
            for m in moves
        ]
        print(json.dumps(out))
    else:
        for m in moves:
            print(f"{m.kind.name:<14} {m}")
        print(f"{len(moves)} moves")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="ddz-fast", description="Fast, exact Dou Dizhu move generation.")
    p.add_argument("--version", action="version", version=f"ddz-fast {__version__}")
    sub = p.add_subparsers(dest="command", required=True)

    m = sub.add_parser("moves", help="list the legal moves of a hand")
    m.add_argument("hand", help="the hand as card text, e.g. 33445566778899TTJJ")
    m.add_argument("--last", help="the move to beat, as card text (default: a free lead)")
    m.add_argument("--last-kind", help="kind of --last when its cards are ambiguous, e.g. AIRPLANE_SOLO")
    m.add_argument("--rules", default="standard", choices=list(PRESETS), help="rules preset")
    m.add_argument("--json", action="store_true", help="print JSON")
    m.set_defaults(func=_cmd_moves)
    return p


def main(argv: Optional[List[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (ValueError, TypeError) as e:
        print(f"ddz-fast: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
