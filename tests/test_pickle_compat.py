"""Pickles written by earlier releases load with today's code and describe
the same objects (saved games, Ray workers and datasets hold such pickles).

Each ``tests/data/pickles/ddz_fast-<version>.pickle`` was written by
``tests/data/pickles/make_pickles.py`` with that release installed; it holds
the cases of ``tests/pickle_cases.py`` with the descriptions that release
gave them, at pickle protocols 2 and 5."""
import glob
import os
import pickle

import pytest

from pickle_cases import describe

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = sorted(glob.glob(os.path.join(HERE, "data", "pickles", "ddz_fast-*.pickle")))


def test_there_are_pickles_of_earlier_releases():
    assert FILES, "tests/data/pickles holds no release's pickles"


@pytest.mark.parametrize("path", FILES, ids=os.path.basename)
@pytest.mark.parametrize("protocol", [2, 5])
def test_pickles_of_earlier_releases_load_as_the_same_objects(path, protocol):
    with open(path, "rb") as f:
        stored = pickle.load(f)
    rows = pickle.loads(stored["pickles"][protocol])
    assert len(rows) > 40
    for name, obj, description in rows:
        assert describe(obj) == description, f"{name} (written by ddz-fast {stored['version']})"
