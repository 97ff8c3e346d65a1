"""Search on the engine state: the compiled endgame solver. Built on the engine and the move core."""
