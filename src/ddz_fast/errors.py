"""The library's own exceptions: what went wrong, as a type to catch.

* :class:`IllegalActionError`: a well-formed action that is not legal in
  this state (:meth:`Game.step <ddz_fast.Game.step>`,
  :meth:`VecGame.step <ddz_fast.VecGame.step>`, the environments, an arena
  agent's choice);
* :class:`InvalidMoveError`: text or counts that are no move of the rules,
  or not of the kind asked for (:func:`~ddz_fast.parse_move`, ``Move(kind,
  cards)``);
* :class:`AmbiguousMoveError`: text that reads as several kinds when no
  ``kind=`` chooses one (:func:`~ddz_fast.parse_move`);
* :class:`AgentError`: an agent's own code raised (:mod:`ddz_fast.arena`;
  the agent's exception is the ``__cause__``).

The first three are ValueErrors (as python-chess's IllegalMoveError,
InvalidMoveError and AmbiguousMoveError are) and the last a RuntimeError, so code that
catches those keeps working; all four are :class:`DdzError` too.

>>> import ddz_fast
>>> try:
...     ddz_fast.parse_move("555666777888")
... except ddz_fast.AmbiguousMoveError as e:
...     print(e)
'555666777888' is ambiguous: it reads as AIRPLANE or AIRPLANE_SOLO; pass kind= to choose
"""
# (Imports nothing of ddz_fast: every module, compiled ones included, may import it.)

__all__ = ["DdzError", "IllegalActionError", "InvalidMoveError", "AmbiguousMoveError", "AgentError"]


class DdzError(Exception):
    """Base class of the exceptions raised by ddz-fast itself."""


class IllegalActionError(DdzError, ValueError):
    """A well-formed action that is not legal in this state (the state is
    unchanged)."""


class InvalidMoveError(DdzError, ValueError):
    """Text or counts that are no move (under the rules, or of the kind asked
    for)."""


class AmbiguousMoveError(DdzError, ValueError):
    """Text that reads as several kinds of move, with no ``kind=`` to choose."""


class AgentError(DdzError, RuntimeError):
    """An agent's own code raised: the message names the agent, the agent's
    exception is the ``__cause__``."""
