"""Sample weights: ``None``, or one finite non-negative float64 weight per sample.

:func:`check_sample_weight` refuses weights that are not 1-D, of the wrong length, NaN,
infinite or negative, and weights whose largest is so small that weighted counts lose their
precision or whose total is so large that weighted counts overflow (the limits are in
:mod:`~.target_kinds`).
"""

import numpy as np

from .params import quoted
from .raw_values import as_numpy
from .target_kinds import MAX_TOTAL_WEIGHT, MIN_LARGEST_WEIGHT


def check_sample_weight(sample_weight, n_samples, target="y_true"):
    """``None``, or ``n_samples`` finite non-negative float64 weights (else ValueError);
    ``target`` names the argument whose samples they weigh."""
    if sample_weight is None:
        return None
    weight = as_numpy("sample_weight", sample_weight, "one weight per sample")
    if weight.ndim == 0 or weight.dtype.kind not in "biuf":
        raise ValueError(
            f"sample_weight must be a 1-D array of {n_samples} non-negative "
            f"numbers; got {quoted(sample_weight)}."
        )
    if weight.ndim != 1:
        raise ValueError(
            f"sample_weight must be 1-D, as in scikit-learn; got an array of shape "
            f"{weight.shape}. Pass one weight per sample, e.g. sample_weight.ravel()."
        )
    weight = weight.astype(np.float64, copy=False)  # read, never written
    if weight.shape[0] != n_samples:
        raise ValueError(
            f"sample_weight has {weight.shape[0]} entries but {target} has "
            f"{n_samples} samples."
        )
    smallest, largest = (weight.min(), weight.max()) if weight.size else (0.0, 0.0)
    if not (np.isfinite(smallest) and np.isfinite(largest)):  # NaN or infinity reach both
        raise ValueError("sample_weight contains NaN or infinite values.")
    if smallest < 0:
        raise ValueError(
            f"sample_weight has negative entries (min {smallest:g}); "
            "weights must be non-negative."
        )
    if 0 < largest < MIN_LARGEST_WEIGHT:
        raise ValueError(
            f"sample_weight's largest weight is {largest:g}, below {MIN_LARGEST_WEIGHT:g}: "
            "weighted counts that small lose their precision (subnormal floats). Multiply "
            "the weights by a constant (scores do not change)."
        )
    with np.errstate(over="ignore"):
        total = weight.sum()
    if not total <= MAX_TOTAL_WEIGHT:  # an overflowing sum is infinite
        log_total = np.log(largest) + np.log((weight / largest).sum())
        raise ValueError(
            f"sample_weight sums to about 1e{log_total / np.log(10):.0f}, above "
            f"{MAX_TOTAL_WEIGHT:g}: weighted counts that large overflow float64. Divide "
            "the weights by a constant (scores do not change)."
        )
    return weight
