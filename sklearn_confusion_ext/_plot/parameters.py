"""The Displays' drawing keywords added in issue 14, joined to their declarations.

``title``, ``xticks_rotation="auto"``, the multi-panel Displays' ``ax`` and
``PosteriorIntervalDisplay``'s ``rows`` extend the Display entries of
:data:`PARAMETERS` (``_core/params.py``): :func:`declare_drawing_keywords` adds them
before the Displays' methods are decorated with :func:`validate_params`, which reads
them.
"""

from .._core.params import (
    ARRAY,
    DISPLAY_PLOT,
    FIGSIZE,
    PARAMETERS,
    HasMethods,
    Options,
)

# "auto" names the matrix (and, from from_predictions, its weighting and normalization);
# None draws no title; any other string is the title.
TITLE = [None, str]
_ROTATION = [Options("auto", "vertical", "horizontal"), DISPLAY_PLOT["xticks_rotation"][1]]
_MATRIX_DRAWING = {"xticks_rotation": _ROTATION, "title": TITLE}
# The multi-panel Displays draw on one Axes, a sequence of Axes or a Figure (or SubFigure).
PANELS_AX = {"ax": [None, HasMethods("plot", description="a matplotlib Axes"), ARRAY,
                    HasMethods("add_subplot", description="a matplotlib Figure or SubFigure")]}
ROWS = {"rows": [Options("auto"), ARRAY]}


def declare_drawing_keywords():
    """Add the keywords to the Display entries of :data:`PARAMETERS` (again: no change).

    Called by each Display module before its classes are decorated."""
    for name in ("TransportConfusionMatrixDisplay", "MLCMDisplay"):
        PARAMETERS[f"{name}.plot"] = {**DISPLAY_PLOT, **_MATRIX_DRAWING}
        for method in ("from_predictions", "from_estimator"):
            PARAMETERS[f"{name}.{method}"] = {**PARAMETERS[f"{name}.{method}"],
                                              **_MATRIX_DRAWING}
    PARAMETERS["PosteriorIntervalDisplay.plot"] = {**FIGSIZE, **PANELS_AX, **ROWS}
    PARAMETERS["PosteriorIntervalDisplay.from_confusion"] = {
        **PARAMETERS["PosteriorIntervalDisplay.from_confusion"], **PANELS_AX, **ROWS}
    PARAMETERS["RankingComparisonDisplay.plot"] = {**FIGSIZE, **PANELS_AX}
    PARAMETERS["RankingComparisonDisplay.from_matrices"] = {
        **PARAMETERS["RankingComparisonDisplay.from_matrices"], **PANELS_AX}
