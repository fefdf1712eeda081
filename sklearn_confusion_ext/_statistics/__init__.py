"""The statistics, laid out by what they do.

- :mod:`.results`: the results' common form (frozen, checked, unpacking like scipy's).
- :mod:`.table_tests`: tests on one table of counts: McNemar (the 2 x 2 table of two
  classifiers and its test), Stuart-Maxwell, Bhapkar, the one-versus-all post-hoc tests.
- :mod:`.posterior`: the Dirichlet posterior of a confusion matrix's rows.
- :mod:`.resampling`: resampled confusion matrices (instance weights, cell draws).
- :mod:`.scoring`: the score a statistic is about, and the data it is read from.
- :mod:`.intervals`: confidence intervals of one score on one test set.
- :mod:`.paired`: comparisons of two classifiers on one test set.
- :mod:`.cross_validated`: comparisons of two models across cross-validation folds.
- :mod:`.across_datasets`: comparisons of many models across many data sets.
"""
