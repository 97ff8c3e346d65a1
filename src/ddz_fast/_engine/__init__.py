"""The game engine: the state of one deal and the C functions that are the game's rules, the
Game facade, playouts, the batched tables and the DouZero features over them. Built on the
move core."""

# (pickles of ddz-fast 0.1.0 name ddz_fast._engine._restore_game, from before this
# package existed: see ddz_fast._legacy)
from .game import _restore_game  # noqa: E402,F401
