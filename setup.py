"""Build the Cython extension modules of ddz-fast.

Set DDZ_FAST_DEBUG=1 at build time to compile with bounds checks,
wraparound and initialisation checks turned back on (and without -O3);
the differential suite runs against that build in CI.

Set DDZ_FAST_SANITIZE=1 (or a sanitizer list such as ``address,undefined``)
to compile and link every extension with ``-fsanitize=... -fno-omit-frame-pointer
-g -O1`` (GCC or Clang); it combines with DDZ_FAST_DEBUG.  Python must then
preload the sanitizer runtime: see docs/hardening.md ("Sanitizer build").

Set DDZ_FAST_FUZZER=1 (Clang only) to add ``-fsanitize=fuzzer-no-link``, the
coverage instrumentation that atheris (libFuzzer) reads from the compiled
kernels.  Both the compiler and the linker must be Clang (``CC=clang
LDSHARED="clang -shared"``; GCC rejects the flag), and Python must preload
atheris's sanitizer and libFuzzer runtime (``asan_with_fuzzer.so`` with
DDZ_FAST_SANITIZE=address); see docs/hardening.md ("Coverage-guided harness").
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


def _sanitizers(value):
    """The -fsanitize list of DDZ_FAST_SANITIZE: "" or "0" means none, "1"
    means address and undefined behaviour; anything else is passed as is."""
    value = value.strip()
    if value in ("", "0"):
        return ""
    return "address,undefined" if value == "1" else value


SANITIZE = _sanitizers(os.environ.get("DDZ_FAST_SANITIZE", ""))
FUZZER = os.environ.get("DDZ_FAST_FUZZER", "") not in ("", "0")
link_args = []
if SANITIZE or FUZZER:
    if os.name == "nt":
        raise SystemExit("DDZ_FAST_SANITIZE / DDZ_FAST_FUZZER: GCC or Clang builds only")
    # -O1 keeps the reports' stacks readable and the run fast enough for the
    # whole suite; the frame pointers give ASan its cheap unwinder.  (The
    # later -O1 overrides the release build's -O3; a debug build keeps -O0.)
    flags = [f"-fsanitize={SANITIZE}"] if SANITIZE else []
    if FUZZER:
        flags.append("-fsanitize=fuzzer-no-link")
    flags += ["-fno-omit-frame-pointer", "-g"]
    compile_args = compile_args + flags + ([] if DEBUG else ["-O1"])
    link_args = flags

# The compiled modules, by their dotted names under ddz_fast (see CONTRIBUTING's layout).
modules = [
    "_core.kernels", "_core.wild", "_core.registry", "_core.move", "_core.movelist", "_util.checks", "_util.rng",
    "_util.interrupt",
    "_core.entry", "_engine.engine", "_engine.bots", "_engine.worlds", "_engine.playout", "_engine.game",
    "_core.lookup", "_core.ranks", "_engine.vec", "_engine.recorder",
    "_search.solver", "_engine.douzero", "_core.testing"
]
extensions = [
    Extension(
        f"ddz_fast.{name}",
        [f"src/ddz_fast/{name.replace('.', '/')}.pyx"],
        include_dirs=[numpy.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=compile_args,
        extra_link_args=link_args,
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
