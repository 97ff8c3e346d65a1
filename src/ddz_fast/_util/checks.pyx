# cython: language_level=3
"""Argument checks: the one policy for the integers, seeds, seats, numbers,
limits and options that come from Python.

Every public entry point turns its integer arguments (counts, seats, seeds,
ids, thread counts) into C or Python ints through these functions, so the
same wrong value gets the same exception type and wording everywhere:

* the wrong type -- anything that is not an ``int`` or a NumPy integer,
  including ``bool``/``numpy.bool_``, floats, strings and None -- raises
  ``TypeError("<what> must be an int, not <type>")``;
* an int outside the allowed range raises
  ``ValueError("<what> <value> is out of range <lo>..<hi>")``;
* a seed is any int, taken modulo 2**64 (so -1 is 2**64 - 1) -- except
  an environment's ``reset(seed=...)``, which follows Gymnasium: None or an
  int >= 0 (:func:`check_env_seed`);

and the one policy for other numbers and options:

* a number (:func:`check_number`) is an int, a float or a NumPy one (not a
  bool): TypeError otherwise; NaN, infinity and an int beyond a double
  (``10**400``) are ValueErrors, as is a value outside the allowed range;
* a search limit (:func:`check_limit`) is None (no limit) or a number
  > 0; a node count is an exact int (capped where no search reaches), a
  time may be ``inf`` (no limit either);
* a count limit (:func:`check_count_limit`) is None (no limit), an int in
  its range, or one of its named settings (``"auto"``);
* a named option (:func:`check_choice`) is one of its allowed strings;
* text (:func:`plain_str`) is a str, and a subclass of str becomes a plain
  str copy before anything reads it (its ``__len__``, ``strip``, ``__eq__``
  or ``__hash__`` may be overridden to lie);

and the one policy for arrays and iterables of cards:

* :func:`private_array`: a NumPy array argument becomes a private copy, a
  plain ``ndarray``, before it is checked, so what was checked is what the
  GIL-free kernels read (another thread cannot change it in between); a
  masked array raises ``TypeError`` (its mask would be dropped, and the
  values under it are not the caller's data); other subclasses
  (``np.matrix``, memmaps) are read as their plain data;
* :func:`bounded_list`: an iterable becomes a list of at most ``limit``
  items, a longer one raises ``ValueError`` without being read further (an
  endless iterator cannot eat the memory);
* :func:`frozen`: the one way to make an array read-only for good.

>>> from ddz_fast._util.checks import check_int, check_number, check_seed
>>> check_int(3, "players", 3, 4)
3
>>> check_int("3", "players", 3, 4)
Traceback (most recent call last):
...
TypeError: players must be an int, not str
>>> check_seed(-1) == 2**64 - 1
True
>>> check_number(10**400, "table_mb", 0, 2**20)
Traceback (most recent call last):
...
ValueError: table_mb 1000000000000... (401 digits) is out of range (beyond a float)
"""
from cpython.long cimport PyLong_AsLongLongAndOverflow
from libc.math cimport INFINITY
from libc.stdint cimport uint64_t

import itertools

import numpy as np

__all__ = ["check_int", "check_seat", "check_seed", "check_env_seed", "check_threads", "check_index",
           "check_number", "check_limit", "check_count_limit", "check_choice", "plain_str",
           "private_array", "bounded_list", "frozen", "MAX_THREADS"]

# More worker threads than any machine we run on needs; the bound keeps a
# typo such as threads=10**9 from asking the OS for a billion threads.
MAX_THREADS = 1024

cdef object _MASK = (1 << 64) - 1
cdef object _INTEGER = np.integer
cdef object _NPBOOL = np.bool_
cdef object _FLOATING = np.floating
cdef object _MASKED = np.ma.MaskedArray


cdef str _type_name(object x):
    # "bool" for Python's, "numpy.bool" for NumPy's (whose __name__ is
    # also "bool" in NumPy 2)
    cdef type t = type(x)
    return t.__name__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__name__}"


cdef inline object _as_pyint(object x, str what):
    """``x`` as a Python int; TypeError for everything that is not an int."""
    if type(x) is int:
        return x
    if isinstance(x, (bool, _NPBOOL)) or not isinstance(x, (int, _INTEGER)):
        raise TypeError(f"{what} must be an int, not {_type_name(x)}")
    return int(x)


cdef long long as_int(object x, str what, long long lo, long long hi) except? -1:
    cdef int overflow = 0
    cdef long long v
    x = _as_pyint(x, what)
    v = PyLong_AsLongLongAndOverflow(x, &overflow)
    if overflow or v < lo or v > hi:
        raise ValueError(f"{what} {x} is out of range {lo}..{hi}")
    return v


cdef uint64_t as_seed(object x, str what) except? 0:
    return <uint64_t>(_as_pyint(x, what) & _MASK)


cdef int as_seat(object x, int players, str what) except? -1:
    return <int>as_int(x, what, 0, players - 1)


cdef int as_threads(object x) except? -1:
    return <int>as_int(x, "threads", 1, MAX_THREADS)


def check_int(x, what, lo, hi):
    """``x`` as a Python int in ``lo..hi`` (TypeError/ValueError otherwise)."""
    cdef object v = _as_pyint(x, what)
    if not lo <= v <= hi:
        raise ValueError(f"{what} {v} is out of range {lo}..{hi}")
    return v


def check_seat(x, players, what="seat"):
    """A seat ``0..players-1``."""
    return as_seat(x, players, what)


def check_seed(x, what="seed"):
    """A seed: any int, taken modulo 2**64."""
    return as_seed(x, what)


def check_env_seed(x, what="seed"):
    """An environment's seed, as Gymnasium's seeding takes it: None, or a
    Python int >= 0 (a NumPy int converted).  The environments' one seed
    policy; the library's own seeds (:func:`check_seed`) take any int."""
    if x is None:
        return None
    cdef object v = _as_pyint(x, what)
    if v < 0:
        raise ValueError(f"{what} must be None or an int >= 0 (as Gymnasium's seeding takes it), not {v}")
    return v


def check_threads(x):
    """A thread count ``1..MAX_THREADS``."""
    return as_threads(x)


def check_index(x, size, what="id"):
    """An index or id ``0..size-1`` (ValueError, never IndexError, when out of range)."""
    if size <= 0:
        raise ValueError(f"{what} {x!r} is out of range: there are none")
    return check_int(x, what, 0, size - 1)


cdef str _shown(object x):
    """``repr(x)``, shortened for an int of hundreds of digits."""
    text = repr(x)
    return text if len(text) <= 24 else f"{text[:13]}... ({len(text.lstrip('-'))} digits)"


cdef double _as_float(object x, str what, str none) except? -1.0:
    """``x`` as a double: TypeError for a non-number (``none``: what else
    is allowed, for the message), ValueError for an int beyond a double."""
    if isinstance(x, (bool, _NPBOOL)) or not isinstance(x, (int, float, _INTEGER, _FLOATING)):
        raise TypeError(f"{what} must be a number{none}, not {_type_name(x)}")
    try:
        return float(x)
    except OverflowError:
        raise ValueError(f"{what} {_shown(x)} is out of range (beyond a float)") from None


def check_number(x, what, lo=None, hi=None, *, above=False, finite=True):
    """``x`` as a float: TypeError unless it is a number (an int, a float or
    a NumPy one; not a bool); ValueError when it is NaN, an int beyond a
    double, infinite (unless ``finite`` is False), below ``lo`` (at or below
    it with ``above``) or above ``hi``."""
    cdef double v = _as_float(x, what, "")
    if v != v:
        raise ValueError(f"{what} must be a number, not NaN")
    if (lo is not None and (v <= lo if above else v < lo)) or (hi is not None and v > hi):
        if lo is not None and hi is not None:
            raise ValueError(f"{what} {x!r} is out of range {lo}..{hi}")
        if lo is not None:
            raise ValueError(f"{what} must be {'>' if above else '>='} {lo}, not {x!r}")
        raise ValueError(f"{what} must be <= {hi}, not {x!r}")
    if finite and (v == INFINITY or v == -INFINITY):
        raise ValueError(f"{what} must be finite, not {x!r}")
    return v


def check_limit(x, what, *, integer=False, cap=None):
    """A search limit: None (no limit), or a number > 0 (TypeError/ValueError
    otherwise, naming None as the way to ask for no limit).

    With ``integer`` (a node count) an exact int, at most ``cap`` (a larger
    one is taken as ``cap``: a bound no search reaches, so counting stays
    in C); else a float, ``inf`` allowed (no limit either)."""
    cdef double v
    if x is None:
        return None
    if integer:
        if isinstance(x, (bool, _NPBOOL)) or not isinstance(x, (int, _INTEGER)):
            raise TypeError(f"{what} must be an int or None (no limit), not {_type_name(x)}")
        n = int(x)
        if n <= 0:
            raise ValueError(f"{what} must be > 0 (or None for no limit), not {x!r}")
        return n if cap is None else min(n, cap)
    v = _as_float(x, what, " or None (no limit)")
    if not v > 0:           # (NaN included)
        raise ValueError(f"{what} must be > 0 (or None for no limit), not {x!r}")
    return v


def check_count_limit(x, what, lo, hi, settings=()):
    """A limit on how many things are done: None (no limit), an int in
    ``lo..hi``, or one of the strings ``settings`` (e.g. ``"auto"``: the
    caller picks the limit).  TypeError for another type, ValueError for an
    int out of range or another string, each naming every form allowed.

    >>> check_count_limit("auto", "candidates", 2, 2**20, ("auto",))
    'auto'
    >>> check_count_limit(1, "candidates", 2, 2**20, ("auto",))
    Traceback (most recent call last):
    ...
    ValueError: candidates 1 is out of range 2..1048576 (or None for no limit, or 'auto')
    """
    cdef str forms = " (or None for no limit" + "".join(f", or {s!r}" for s in settings) + ")"
    if x is None:
        return None
    if isinstance(x, str):
        x = plain_str(x, what)
        if x not in settings:
            raise ValueError(f"{what} must be an int{forms}, not {x!r}")
        return x
    if isinstance(x, (bool, _NPBOOL)) or not isinstance(x, (int, _INTEGER)):
        raise TypeError(f"{what} must be an int{forms}, not {_type_name(x)}")
    v = int(x)
    if not lo <= v <= hi:
        raise ValueError(f"{what} {v} is out of range {lo}..{hi}{forms}")
    return v


def check_choice(x, what, options):
    """``x`` if it is one of the strings ``options`` (TypeError for a
    non-string, ValueError for another string, both listing the options)."""
    if not isinstance(x, str):
        raise TypeError(f"{what} must be one of {tuple(options)}, not {_type_name(x)}")
    x = plain_str(x, what)
    if x not in options:
        raise ValueError(f"{what} must be one of {tuple(options)}, not {x!r}")
    return x


def plain_str(x, what):
    """``x`` as a plain ``str`` (TypeError for anything else): a subclass of
    str becomes a copy of its characters, so that none of its own methods
    (``__len__``, ``strip``, ``__getitem__``, ``__eq__``...) runs on it later.

    >>> class Liar(str):
    ...     def __len__(self): return 99
    >>> type(plain_str(Liar("33"), "card text")), len(plain_str(Liar("33"), "card text"))
    (<class 'str'>, 2)
    """
    if type(x) is str:
        return x
    if not isinstance(x, str):
        raise TypeError(f"{what} must be a str, not {_type_name(x)}")
    return str.__str__(x)     # (str's own method: a plain copy of the characters)


def private_array(x, what):
    """A private plain-``ndarray`` copy of the array ``x`` (TypeError for a
    masked array; see the module docstring)."""
    if isinstance(x, _MASKED):
        raise TypeError(f"{what} must be a plain numpy array, not a masked array "
                        "(use .filled() to choose the values of the masked cells)")
    return np.array(x, copy=True, subok=False)


def bounded_list(x, Py_ssize_t limit, what):
    """The items of the iterable ``x`` as a list, reading at most
    ``limit + 1`` of them (ValueError when there are more than ``limit``);
    a list or tuple is copied whole, its length left to the caller."""
    cdef list items
    if isinstance(x, (list, tuple)):
        return list(x)     # (already in memory: the caller checks its length)
    items = list(itertools.islice(x, limit + 1))
    if len(items) > limit:
        raise ValueError(f"{what}: more than {limit} items (an iterable is read up to that many)")
    return items


def read_only_view(arr):
    """A live view of the C-contiguous ``arr`` (later writes to ``arr`` show
    through) that cannot be made writeable again: its base is a read-only
    ``memoryview`` of ``arr``, as in :func:`frozen`, instead of ``arr``."""
    return np.frombuffer(memoryview(arr).toreadonly(), dtype=arr.dtype).reshape(arr.shape)


def frozen(arr):
    """A read-only copy of ``arr`` that cannot be made writeable again.

    Clearing the writeable flag is not enough: NumPy sets it again on
    request (``setflags(write=True)``) when the base chain ends in memory
    that can be written.  Here the base is a read-only ``memoryview``, which
    exports no writeable buffer, so the request raises ValueError.
    """
    flat = np.array(arr, copy=True, order="C", subok=False).reshape(-1)
    out = np.frombuffer(memoryview(flat).toreadonly(), dtype=flat.dtype).reshape(np.shape(arr))
    return out
