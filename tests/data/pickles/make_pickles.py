"""Write ``ddz_fast-<version>.pickle`` beside this file with the installed
ddz-fast: every case of ``tests/pickle_cases.py`` with its description, at
pickle protocols 2 and 5.  Run it once per release, with that release
installed (``python tests/data/pickles/make_pickles.py``), and commit the file:
``tests/test_pickle_compat.py`` loads every file here with today's code."""
import os
import pickle
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))  # tests/

import ddz_fast  # noqa: E402
from pickle_cases import cases, describe  # noqa: E402

rows = [(name, obj, describe(obj)) for name, obj in cases()]
out = {"version": ddz_fast.__version__,
       "pickles": {proto: pickle.dumps(rows, protocol=proto) for proto in (2, 5)}}
path = os.path.join(HERE, f"ddz_fast-{ddz_fast.__version__}.pickle")
with open(path, "wb") as f:
    pickle.dump(out, f, protocol=2)
print(f"wrote {len(rows)} cases to {path}")
