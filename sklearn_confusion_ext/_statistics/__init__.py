"""The statistics, laid out by what they do.

- :mod:`.table_tests`: tests on one table of counts: McNemar (the 2 x 2 table of two
  classifiers and its test), Stuart-Maxwell, Bhapkar, the one-versus-all post-hoc tests.
- :mod:`.posterior`: the Dirichlet posterior of a confusion matrix's rows.
- :mod:`.scoring`: the score a statistic is about, and the data it is read from.
- :mod:`.intervals`: confidence intervals of one score on one test set.
- :mod:`.paired`: comparisons of two classifiers on one test set.
- :mod:`.several_models`: several classifiers on one test set (Cochran's Q and its
  pairwise McNemar tests), and one classifier's accuracy against the no-information rate.
- :mod:`.subgroups`: one classifier's score in each subgroup of its instances, against
  the rest.
- :mod:`.cross_validated`: comparisons of two models across cross-validation folds.
- :mod:`.friedman`: Friedman's test of many models across many data sets, and its post-hoc
  tests.
- :mod:`.signed_rank`: the Bayesian signed-rank test of two models across data sets.
- :mod:`.hierarchical`: the Bayesian hierarchical test of two models across data sets,
  from their folds.
- :mod:`.mcmc`: the Markov chain Monte Carlo machinery (slice sampler, truncated draws,
  R-hat, effective sample size).
- :mod:`.dataset_scores`: what the comparisons across data sets share (the table of
  scores, the posterior's three regions).

The resampled confusion matrices they draw (instance weights, cell draws, grouped
products) are machinery shared with the reports' intervals: :mod:`.._core.resampling`; the
results' common form (frozen, checked, unpacking like scipy's, printed for notebooks) is
shared with every result of the library: :mod:`.._core.results`.
"""
