#!/usr/bin/env bash
# The speed figures on a machine with a GPU, in one table: benchmarks/compare.py (every row,
# full size) with the CuPy/PyTorch-on-GPU rows first (the TCM of labels vs probabilities and
# of soft vs soft at N = 1,000,000, C = 100 beside one read / one GEMM on the device).
#
# Run from the repository root:  bash benchmarks/device_run.sh [--quick] [other compare.py
# options]. It assumes nothing of the machine: what is missing (NumPy, SciPy, scikit-learn,
# array-api-compat, CuPy, PyTorch, a CUDA device) is printed with the reason and left out.
# The package is imported from this working tree (PYTHONPATH), never installed.
set -u
cd "$(dirname "$0")/.." || exit 1
PYTHON=${PYTHON:-python3}
command -v "$PYTHON" >/dev/null 2>&1 || PYTHON=python
echo "== $(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc 2>/dev/null) cores; $($PYTHON --version 2>&1)"
command -v nvidia-smi >/dev/null 2>&1 \
    && nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader \
    || echo "nvidia-smi not found: no NVIDIA GPU visible"

missing=""
for module in numpy scipy sklearn joblib threadpoolctl; do
    $PYTHON -c "import $module" >/dev/null 2>&1 || missing="$missing $module"
done
if [ -n "$missing" ]; then
    echo "SKIPPED everything: Python modules missing:$missing (the library needs them)."
    exit 0
fi
$PYTHON -c "import cupy; print('cupy', cupy.__version__, 'devices:', cupy.cuda.runtime.getDeviceCount())" 2>&1 \
    | tail -1 | sed 's/^/  /'
$PYTHON -c "import torch; print('torch', torch.__version__, 'cuda:', torch.cuda.is_available())" 2>&1 \
    | tail -1 | sed 's/^/  /'
$PYTHON -c "import array_api_compat" >/dev/null 2>&1 \
    || echo "  array_api_compat missing: the GPU rows are left out (the library reads device arrays through it)"

# The compiled kernels, built in place for this machine's Python (the tree is never installed).
if $PYTHON -c "import Cython, setuptools" >/dev/null 2>&1; then
    if $PYTHON setup.py build_ext --inplace -q >/tmp/kernels_build.log 2>&1; then
        echo "  compiled kernels built (Cython $($PYTHON -c 'import Cython; print(Cython.__version__)'))"
    else
        echo "  the compiled kernels did not build: the NumPy references run"; tail -5 /tmp/kernels_build.log
    fi
else
    echo "  Cython or setuptools missing: the compiled kernels are not built (NumPy references run)"
fi
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
cd benchmarks || exit 1
exec $PYTHON compare.py --gpu "$@"
