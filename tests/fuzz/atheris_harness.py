"""Coverage-guided fuzzing (atheris / libFuzzer) of the parsing and kernel
entry points: parse_cards, parse_move, legal_moves, classify, beats and
legal_moves_batch, with results checked against the reference engine.

Input format (bytes): byte 0 picks the target, byte 1 the rules preset, the
rest is read front to back by the target (see Reader: text, counts, array
dtypes and layouts, move rows), so seeds can be written by hand.  ``--make-corpus DIR`` writes the
seed corpus (tests/fuzz/corpus/: meaningful hands and moves for each target).

    python tests/fuzz/atheris_harness.py -runs=20000 -seed=1 "$(mktemp -d)" tests/fuzz/corpus  # short run (CI)
    python tests/fuzz/atheris_harness.py -max_total_time=600 /tmp/corpus tests/fuzz/corpus
    python tests/fuzz/atheris_harness.py tests/fuzz/corpus/*                # replay the corpus only

New inputs go to the first directory: never give tests/fuzz/corpus first.

atheris instruments the Python layer (ddz_fast's .py modules: cards, rules,
moves, reference, game).  The compiled kernels feed coverage back only when
built with clang's -fsanitize=fuzzer-no-link (DDZ_FAST_FUZZER=1, with
DDZ_FAST_SANITIZE=address) and run with atheris's asan_with_fuzzer.so
preloaded; the same 20,000 inputs then reach about 2,400 edges instead of
about 330 (docs/hardening.md, "Coverage-guided harness", has the commands).

A crash, an undocumented exception or a result that differs from the
reference makes libFuzzer stop and write the input to crash-<sha1>.
"""
from __future__ import annotations

import os
import sys
from typing import Any, Callable, List, Tuple

import atheris

with atheris.instrument_imports(include=["ddz_fast.cards", "ddz_fast.moves", "ddz_fast._core.parse",
                                         "ddz_fast.rules", "ddz_fast.kinds"]):
    import numpy as np

    import ddz_fast as ddz
    from ddz_fast import reference

PRESETS = ("standard", "strict", "four")
DTYPES = (np.uint8, np.int8, np.int16, np.uint16, np.int32, np.int64, np.uint64, np.float64, np.bool_,
          np.dtype(">i4"))
DOCUMENTED = (TypeError, ValueError)
MAX_REFERENCE_CARDS = 14     # bigger hands: contract only (the reference is slow there)


def _outcome(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """fn's result, or the type of a documented exception (others propagate)."""
    try:
        return fn(*args, **kwargs)
    except DOCUMENTED as e:
        if not str(e):
            raise AssertionError(f"{type(e).__name__} without a message") from e
        return type(e)


def _same(fast: Any, ref: Any, what: str) -> None:
    if isinstance(fast, type) or isinstance(ref, type):
        if fast is not ref:
            raise AssertionError(f"{what}: fast {fast!r} vs reference {ref!r}")
    elif list(fast) != list(ref):
        raise AssertionError(f"{what}: fast {list(fast)!r} vs reference {list(ref)!r}")


class Reader:
    """Reads an input front to back (past the end: zeros), so seed inputs can
    be written by hand: see _seeds()."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def byte(self) -> int:
        b = self.data[self.pos] if self.pos < len(self.data) else 0
        self.pos += 1
        return b

    def int_in(self, low: int, high: int) -> int:
        return low + self.byte() % (high - low + 1)

    def take(self, n: int) -> bytes:
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out.ljust(n, b"\0")

    def text(self) -> str:
        """A length byte, then that many bytes of UTF-8 (bad bytes become U+FFFD)."""
        return self.take(self.byte()).rstrip(b"\0").decode("utf-8", "replace")


def _hand(rd: Reader) -> Any:
    """A hand input: form byte (0 array, 1 list, 2 tuple, 3 text), then 15
    count bytes (or the text); for arrays a dtype byte and a layout byte."""
    form = rd.int_in(0, 3)
    if form == 3:
        return rd.text()
    raw = list(rd.take(15))
    if form == 1:
        return raw
    if form == 2:
        return tuple(raw)
    dt = DTYPES[rd.int_in(0, len(DTYPES) - 1)]
    try:
        arr = np.array(raw, dtype=dt)
    except OverflowError:
        arr = np.array(raw, dtype=np.int64)
    lay = rd.byte()
    if lay & 1:
        big = np.zeros(arr.size * 2, dtype=arr.dtype)
        big[::2] = arr
        arr = big[::2]                      # non-contiguous
    if lay & 2:
        arr.flags.writeable = False
    if lay & 4:
        arr = arr.reshape(1, 15)            # 2-D where 1-D is expected
    return arr


def _move(rd: Reader, rules: str) -> Any:
    """Choice byte: 0 None, 1 PASS, else a kind byte (>15: no kind) and move text."""
    choice = rd.int_in(0, 2)
    if choice == 0:
        return None
    if choice == 1:
        return ddz.PASS
    kind = rd.byte()
    text = rd.text()
    m = _outcome(ddz.parse_move, text, None if kind > 15 else kind, rules=rules)
    return None if isinstance(m, type) else m


def _target_parse_cards(rd: Reader, rules: str) -> None:
    text = rd.text()
    out = _outcome(ddz.parse_cards, text, rules=rules)
    if not isinstance(out, type):
        back = ddz.parse_cards(ddz.format_cards(out, rules=rules), rules=rules)
        if back.tolist() != out.tolist() or out.shape != (15,) or out.dtype != np.uint8:
            raise AssertionError(f"parse_cards round trip: {text!r} -> {out} -> {back}")


def _target_parse_move(rd: Reader, rules: str) -> None:
    kind = rd.byte()
    text = rd.text()
    k = None if kind > 15 else kind
    _same(_outcome(lambda: [ddz.parse_move(text, k, rules=rules)]),
          _outcome(lambda: [reference.parse_move(text, k, rules=rules)]), f"parse_move({text!r}, {k})")


def _target_legal_moves(rd: Reader, rules: str) -> None:
    hand = _hand(rd)
    last = _move(rd, rules)
    fast = _outcome(ddz.legal_moves, hand, last, rules=rules)
    counts = _outcome(ddz.to_counts, hand, rules=rules)
    if isinstance(counts, type):
        if not isinstance(fast, type):
            raise AssertionError(f"legal_moves accepted a hand to_counts refuses: {hand!r}")
        return
    if int(counts.sum()) <= MAX_REFERENCE_CARDS:
        _same(fast, _outcome(reference.legal_moves, counts, last, rules=rules), f"legal_moves({hand!r}, {last!r})")


def _target_classify(rd: Reader, rules: str) -> None:
    hand = _hand(rd)
    _same(_outcome(ddz.classify, hand, rules=rules), _outcome(reference.classify, hand, rules=rules),
          f"classify({hand!r})")


def _target_beats(rd: Reader, rules: str) -> None:
    a, b = _move(rd, rules), _move(rd, rules)
    _same(_outcome(lambda: [ddz.beats(a, b, rules=rules)]),
          _outcome(lambda: [reference.beats(a, b, rules=rules)]), f"beats({a!r}, {b!r})")


def _target_batch(rd: Reader, rules: str) -> None:
    """n byte (0..6), n*15 hand bytes, mode byte (0 no lasts, 1 rows, 2 moves),
    lasts, threads byte (0..3; 0 is refused)."""
    n = rd.int_in(0, 6)
    hands = np.frombuffer(rd.take(15 * n), dtype=np.uint8).reshape(n, 15)
    mode = rd.int_in(0, 2)
    lasts: Any = None
    if mode == 1:
        lasts = np.frombuffer(rd.take(16 * n), dtype=np.uint8).reshape(n, 16)
    elif mode == 2:
        lasts = [_move(rd, rules) for _ in range(n)]
    threads = rd.int_in(0, 3)
    batch = _outcome(ddz.legal_moves_batch, hands, lasts, rules=rules, threads=threads)
    counts = _outcome(ddz.count_moves, hands, lasts, rules=rules, threads=threads)
    if isinstance(batch, type):
        if counts is not batch:
            raise AssertionError(f"legal_moves_batch raised {batch}, count_moves gave {counts!r}")
        return
    if np.diff(batch.offsets).tolist() != list(counts):
        raise AssertionError("count_moves differs from legal_moves_batch")
    for i in range(n):
        last = None
        if mode == 1:
            row = lasts[i]
            last = ddz.PASS if not row[:15].any() else ddz.Move(int(row[15]), row[:15].astype(np.int64), rules=rules)
        elif mode == 2:
            last = lasts[i]
        if int(hands[i].sum()) <= MAX_REFERENCE_CARDS:
            _same(batch[i], reference.legal_moves(hands[i], last, rules=rules), f"batch hand {i}")


TARGETS = (_target_parse_cards, _target_parse_move, _target_legal_moves, _target_classify,
           _target_beats, _target_batch)


def TestOneInput(data: bytes) -> None:  # noqa: N802 (the name libFuzzer/atheris expects)
    """One fuzz input: byte 0 picks the target, byte 1 the rules, the rest is
    read front to back by the target."""
    if len(data) < 2:
        return
    TARGETS[data[0] % len(TARGETS)](Reader(data[2:]), PRESETS[data[1] % len(PRESETS)])


# ---------------------------------------------------------------------------
# The seed corpus
# ---------------------------------------------------------------------------

def _seeds() -> List[Tuple[str, bytes]]:
    """(name, bytes) of meaningful seed inputs, in the format the targets read."""
    rules_byte = {"standard": 0, "strict": 1, "four": 2}

    def counts(text: str, rules: str) -> bytes:
        return bytes(ddz.parse_cards(text, rules=rules).tolist())

    def text(t: str) -> bytes:
        b = t.encode()
        return bytes([len(b)]) + b

    def move(t: str, kind: int = 255) -> bytes:       # choice 2: parse kind + text
        return bytes([2, kind]) + text(t)

    out: List[Tuple[str, bytes]] = []
    texts = ["3334445556BR", "BR", "33445566778899TTJJQQKKAA22BR", "10JQKA", "x d 3 3",
             "555666777888", "3333BR", "pass", "2222", "3 4 5 6 7 8 9 10 J Q K A", "not cards!"]
    for i, t in enumerate(texts):
        out.append((f"parse_cards_{i:02d}", bytes([0, i % 3]) + text(t)))
        out.append((f"parse_move_{i:02d}", bytes([1, i % 3, 255 if i % 2 else 9]) + text(t)))
    hands = [("lead20", "3334445556677889TJQKA", "standard", "3"),
             ("rocket", "BR3", "standard", "2"),
             ("bombs", "3333444455556666BR", "standard", "KKKK"),
             ("airplanes", "333444555666777888", "strict", "333444"),
             ("four", "33333344445555BBRR", "four", "666666"),
             ("pairs", "334455667788", "standard", "334455"),
             ("fourtwo", "88889TJQ", "standard", "66665577")]
    for name, hand, rules, last in hands:
        r = rules_byte[rules]
        c = counts(hand, rules)
        out.append((f"legal_moves_{name}_lead", bytes([2, r, 1]) + c + bytes([0])))
        out.append((f"legal_moves_{name}_text", bytes([2, r, 3]) + text(hand) + move(last)))
        out.append((f"legal_moves_{name}_int16", bytes([2, r, 0]) + c + bytes([2, 3, 1])))
        out.append((f"classify_{name}", bytes([3, r, 1]) + counts(last, rules)))
        out.append((f"classify_{name}_hand", bytes([3, r, 1]) + c))
        out.append((f"batch_{name}", bytes([5, r, 2]) + c + counts(last, rules) + bytes([2])
                    + move(last) + move("pass") + bytes([2])))
    for i, (a, b) in enumerate([("3", "4"), ("3333", "BR"), ("33344", "55566"), ("BR", "2222"),
                                ("333444555666", "pass")]):
        out.append((f"beats_{i}", bytes([4, 0]) + move(a) + move(b)))
    return out


def make_corpus(directory: str) -> int:
    os.makedirs(directory, exist_ok=True)
    seeds = _seeds()
    for name, data in seeds:
        with open(os.path.join(directory, name), "wb") as f:
            f.write(data)
    return len(seeds)


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--make-corpus":
        print(f"wrote {make_corpus(sys.argv[2])} seed files to {sys.argv[2]}")
        return
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
