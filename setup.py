"""The compiled kernels (Cython); everything else is declared in pyproject.toml.

``pip install .`` compiles ``sklearn_confusion_ext/_core/_kernels.pyx``,
``_sparse_kernels.pyx``, ``_row_kernels.pyx`` and ``_draw_kernels.pyx``, and
``sklearn_confusion_ext/_cli/_text_kernels.pyx`` (Cython and a C compiler, fetched and found
by pip's build). The package runs without them, on the NumPy
reference of each kernel (``sklearn_confusion_ext._core.kernels``), only from a source
tree that was never built.
"""

import os
import sys

from Cython.Build import cythonize
from setuptools import Extension, setup

# -O3 lets GCC and Clang vectorize the kernels' inner loops (NumPy's own -O2 does less).
optimize = [] if sys.platform == "win32" else ["-O3"]
extensions = [Extension("sklearn_confusion_ext._core._kernels",
                        ["sklearn_confusion_ext/_core/_kernels.pyx"],
                        extra_compile_args=optimize),
              # the bootstrap's draws counted as they are drawn (NumPy's PCG64 stream)
              Extension("sklearn_confusion_ext._core._draw_kernels",
                        ["sklearn_confusion_ext/_core/_draw_kernels.pyx"],
                        extra_compile_args=optimize),
              Extension("sklearn_confusion_ext._core._sparse_kernels",
                        ["sklearn_confusion_ext/_core/_sparse_kernels.pyx"],
                        extra_compile_args=optimize),
              # -fopenmp-simd: the row reductions' "omp simd" loops vectorize (no OpenMP
              # runtime; the order of a sum is otherwise fixed, which forbids it)
              Extension("sklearn_confusion_ext._core._row_kernels",
                        ["sklearn_confusion_ext/_core/_row_kernels.pyx"],
                        extra_compile_args=optimize + ([] if sys.platform == "win32"
                                                       else ["-fopenmp-simd"])),
              # the command line's parsers of large text files (issue 39)
              Extension("sklearn_confusion_ext._cli._text_kernels",
                        ["sklearn_confusion_ext/_cli/_text_kernels.pyx"],
                        extra_compile_args=optimize)]

# The extensions compiled side by side, one a core (the kernels' C takes most of the time of
# an install; one after the other, CI's two environments spent minutes on them).
setup(ext_modules=cythonize(extensions, compiler_directives={"language_level": 3}),
      options={"build_ext": {"parallel": os.cpu_count() or 1}})
