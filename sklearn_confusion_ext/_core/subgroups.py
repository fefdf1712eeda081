"""The subgroups of a report by subgroup (sites, age bands): one label per instance,
read once into codes, for :func:`~sklearn_confusion_ext.score_by_subgroup` and the
reports' ``subgroups=``. Not the ``groups=`` of the resampling (clusters resampled
together, :func:`.resampling.check_groups`)."""

import numpy as np

from .resampling import _codes_by_appearance, _group_ids


def subgroup_codes(subgroups, n_samples):
    """``(codes, names, n_empty)``: each instance's subgroup (codes into ``names``), the
    subgroups' labels, and how many of them are unused categories of a pandas
    Categorical (kept, empty); missing labels (NaN, None) refused, naming ``subgroups``,
    the count and the first row."""
    categories = None
    dtype = getattr(subgroups, "dtype", None)
    if dtype is not None and getattr(dtype, "name", None) == "category":
        categories = list(dtype.categories)
        codes = np.asarray(subgroups.cat.codes if hasattr(subgroups, "cat")
                           else subgroups.codes, dtype=np.intp)
        values = None
    else:
        try:
            values = _group_ids(subgroups)
        except ValueError:
            raise ValueError("subgroups must be a 1-D array of subgroup labels, one per "
                             "instance; it holds sequences of different lengths.") from None
        if values.ndim != 1:
            raise ValueError(f"subgroups must be 1-D, one label per instance; got an array "
                             f"of shape {values.shape}.")
    length = len(codes) if values is None else len(values)
    if length != n_samples:
        raise ValueError(f"subgroups must hold one label per instance, {n_samples} in all; "
                         f"got {length}.")
    if values is None:
        missing = codes < 0
    elif values.dtype.kind in "fc":
        missing = np.isnan(values)
    elif values.dtype == object:
        missing = np.array([v is None or (isinstance(v, float) and v != v) for v in values],
                           dtype=bool)
    else:
        missing = np.zeros(n_samples, dtype=bool)
    if missing.any():
        rows = np.flatnonzero(missing)
        raise ValueError(f"subgroups has {rows.size} missing label(s) (NaN or None), the "
                         f"first at row {int(rows[0])}; give every instance a subgroup (a "
                         "label such as 'unknown' makes the missing ones a subgroup).")
    if values is not None:
        try:
            names, codes = np.unique(values, return_inverse=True)
            names = names.tolist()
        except TypeError:  # labels of unorderable types: by first appearance
            try:
                codes = _codes_by_appearance(values.tolist())
            except TypeError as error:
                raise TypeError(str(error).replace("groups", "subgroups", 1)
                                .replace("group id", "subgroup label")) from None
            first = np.unique(codes, return_index=True)[1]
            names = [values[i] for i in first]
        return codes.reshape(-1).astype(np.intp), names, 0
    used = np.zeros(len(categories), dtype=bool)
    used[codes] = True
    return codes, [c.item() if isinstance(c, np.generic) else c for c in categories], \
        int(np.count_nonzero(~used))


def subgroup_rows(codes, n_groups):
    """The rows of each subgroup (in order), from one stable sort of the codes."""
    order = np.argsort(codes, kind="stable")
    return np.split(order, np.cumsum(np.bincount(codes, minlength=n_groups))[:-1])
