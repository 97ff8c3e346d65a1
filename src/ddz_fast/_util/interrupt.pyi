__all__ = ["Stop", "POLL_SECONDS"]

POLL_SECONDS: float

class Stop:
    def cancel(self) -> None: ...
    @property
    def stopped(self) -> bool: ...
