"""What an environment does with an illegal action: the one policy of all
the environments (AEC, parallel, single-seat and vector).

An environment takes two options:

* ``illegal_action``: ``"terminate"`` (PettingZoo's convention for classic
  games) ends the offender's episode with ``illegal_reward`` for it (0 for
  the other agents of a multi-agent environment) and
  ``info["illegal_action"]`` True; ``"raise"`` raises
  :class:`~ddz_fast.IllegalActionError` (a ValueError) and changes nothing;
* ``illegal_reward``: a finite number (default -1).

A value that is no action id at all (a float, an id out of range) is a
TypeError/ValueError in both modes: it is a bug in the caller, not a move.
"""
from __future__ import annotations

from .._checks import check_choice, check_number
from ..errors import IllegalActionError

__all__ = ["IllegalActionPolicy", "ILLEGAL_ACTIONS", "IllegalActionError"]

#: The values of the environments' ``illegal_action`` option.
ILLEGAL_ACTIONS = ("terminate", "raise")


class IllegalActionPolicy:
    """The checked ``illegal_action`` and ``illegal_reward`` options of an
    environment, and what to do when its agent takes an illegal action."""

    __slots__ = ("mode", "reward")

    def __init__(self, illegal_action: object = "terminate", illegal_reward: object = -1.0) -> None:
        self.mode = check_choice(illegal_action, "illegal_action", ILLEGAL_ACTIONS)
        self.reward = check_number(illegal_reward, "illegal_reward")

    def reject(self, message: str) -> float:
        """An illegal action was taken (``message`` says which and why):
        raise :class:`~ddz_fast.IllegalActionError` with ``"raise"``, or
        return the offender's reward with ``"terminate"`` (the caller ends
        its episode)."""
        if self.mode == "raise":
            raise IllegalActionError(message)
        return self.reward

    def __repr__(self) -> str:
        return f"IllegalActionPolicy({self.mode!r}, {self.reward!r})"
