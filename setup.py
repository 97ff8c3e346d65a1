"""Build the Cython extension modules of ddz-fast.

Set DDZ_FAST_DEBUG=1 at build time to compile with bounds checks,
wraparound and initialisation checks turned back on (and without -O3);
the differential suite runs against that build in CI.
"""
import os

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class ParallelBuildExt(build_ext):
    """Compile the extensions in parallel, one compiler per CPU: pip passes
    no ``-j``, and a serial build was a third of the README's test command."""

    def finalize_options(self):
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1

DEBUG = os.environ.get("DDZ_FAST_DEBUG", "") not in ("", "0")

directives = {
    "language_level": "3",
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": not DEBUG,
    "embedsignature": True,
    # Safe without the GIL: kernels touch only their arguments; the rules
    # registry is filled under a lock; caches (text -> counts, a MoveList's
    # rank array, a Move's hash) are idempotent.
    "freethreading_compatible": True,
}
compile_args = ["-O0", "-g"] if DEBUG else ["-O3"]
if os.name == "nt":
    compile_args = ["/Od"] if DEBUG else ["/O2"]

modules = ["_kernels", "_registry", "_move", "_movelist", "_checks", "_rng", "_fast",
           "_engine", "_lookup", "_ranks", "_vec", "_solver", "_douzero"]
extensions = [
    Extension(
        f"ddz_fast.{name}",
        [f"src/ddz_fast/{name}.pyx"],
        include_dirs=[numpy.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=compile_args,
    )
    for name in modules
]

setup(
    cmdclass={"build_ext": ParallelBuildExt},
    ext_modules=cythonize(
        extensions,
        compiler_directives=directives,
        compile_time_env={"DDZ_DEBUG": DEBUG},
    ),
)
