"""Which array library the inputs come from, and where a public function's results go.

scikit-learn's rule under ``array_api_dispatch=True``: with ``array-api-compat`` installed
(the ``[array-api]`` extra), every array a public function returns (matrices, per-class
scores, supports) is an array of the input's namespace on its device, and every scalar score
is a Python float; without it, results are NumPy arrays and Python floats. The parameter
contract (:func:`~.params.validate_params`) applies the rule to every public function; the
reading of the targets themselves lives in :mod:`.array_api`.
"""

import threading

import numpy as np
import scipy.sparse as sp

_ARRAY_LIBRARIES = {"torch", "cupy", "jax", "jaxlib", "mlx"}


def compat_installed():
    """Whether ``array-api-compat`` (the ``[array-api]`` extra) can be imported."""
    try:
        import array_api_compat  # noqa: F401
    except ImportError:
        return False
    return True


def is_cpu_tensor(array):
    """Whether ``array`` is a PyTorch tensor on the CPU of a dtype NumPy holds."""
    if type(array).__module__.split(".")[0] != "torch":
        return False
    try:
        import torch
    except ImportError:  # pragma: no cover - a torch tensor without torch
        return False
    return (isinstance(array, torch.Tensor) and array.device.type == "cpu"
            and array.dtype not in (torch.bfloat16, torch.complex32)
            and not array.is_sparse and array.layout == torch.strided)


def input_space(*arrays):
    """``(xp, device)`` where a public function's results go: the namespace of the inputs
    from another array library when ``array-api-compat`` is installed, else None (NumPy
    results). Dask collections and NumPy inputs give None."""
    if not any(is_foreign(array) for array in arrays) or not compat_installed():
        return None
    try:
        return foreign_namespace(*arrays)
    except ValueError:  # mixed libraries: the function itself says so
        return None


def in_input_namespace(result, space):
    """A public function's ``result`` by scikit-learn's array API rule: NumPy arrays (of
    one dimension or more) as arrays of ``space``, NumPy scalars and 0-d arrays as Python
    floats (integers stay integers), tuples and lists element by element; anything else
    (result objects, dicts, strings, arrays already in ``space``) unchanged."""
    if space is None:
        return result
    if isinstance(result, np.ndarray) and result.ndim == 0:
        result = result[()]
    if isinstance(result, np.ndarray):
        if result.dtype.kind not in "biuf":
            return result
        xp, device = space
        return xp.asarray(result, device=device)
    if isinstance(result, np.floating):
        return float(result)
    if isinstance(result, (np.integer, np.bool_)):
        return result.item()
    if type(result) in (tuple, list):
        return type(result)(in_input_namespace(item, space) for item in result)
    return result


_calls = threading.local()


def call_returning_in_input_namespace(function, arrays, args, kwargs):
    """``function(*args, **kwargs)``, its result in the namespace of ``arrays`` (the
    arguments declared as arrays) by :func:`in_input_namespace`. Only the outermost public
    call converts: a public function that calls another gets the NumPy result it expects."""
    if getattr(_calls, "inside", False):
        return function(*args, **kwargs)
    space = input_space(*arrays)
    if space is None:
        return function(*args, **kwargs)
    _calls.inside = True
    try:
        result = function(*args, **kwargs)
    finally:
        _calls.inside = False
    return in_input_namespace(result, space)


def foreign_namespace(*arrays):
    """``(xp, device)`` of the inputs that are arrays of another array-API library.

    None when every input is NumPy, scipy.sparse, a Python sequence, pandas or Dask, and
    without ``array-api-compat`` (then :func:`host_views` reads them through NumPy).
    """
    foreign = [array for array in arrays if is_foreign(array)]
    if not foreign or not compat_installed():
        return None
    import array_api_compat

    try:
        xp = array_api_compat.array_namespace(*foreign)
    except TypeError as error:
        raise ValueError(f"the inputs come from different array libraries: {error}") from None
    devices = {str(array_api_compat.device(array)) for array in foreign}
    if len(devices) > 1:
        raise ValueError(f"the inputs lie on different devices: {sorted(devices)}.")
    return xp, array_api_compat.device(foreign[0])


def is_foreign(array):
    if array is None or isinstance(array, (np.ndarray, np.generic, list, tuple)) or \
            sp.issparse(array) or hasattr(type(array), "__dask_graph__"):
        return False
    return hasattr(array, "__array_namespace__") or \
        type(array).__module__.split(".")[0] in _ARRAY_LIBRARIES
