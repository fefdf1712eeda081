"""Machinery shared by the papers' ideas: the parameter contract, target validation, array
operations, row chunks, the confusion object, the matrix kinds, dispatch on the input's
array library (Dask, array API) and the accumulator."""
