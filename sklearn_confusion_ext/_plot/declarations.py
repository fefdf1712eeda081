"""The keywords the Displays share, declared once: drawing a matrix, building one, the axes
and figure sizes of the multi-panel Displays (the constraint language is ``_core/params.py``'s;
each Display writes its declarations on its methods' ``@validate_params``)."""

from numbers import Real

from .._core.params import (
    ARRAY,
    BOOLEAN,
    EMPTY,
    ESTIMATOR,
    MLCM_METHOD,
    NORMALIZE,
    POSITIVE_INT,
    TARGETS,
    WEIGHTING,
    FigureSize,
    HasMethods,
    Interval,
    Options,
)

# How a confusion-matrix Display draws its matrix (plot, and the drawing keywords of from_*).
DISPLAY_PLOT = {
    "include_values": [BOOLEAN],
    "cmap": [str, HasMethods("__call__", "reversed", description="a matplotlib Colormap")],
    "xticks_rotation": [Options("auto", "vertical", "horizontal"), Interval(Real, None, None)],
    "values_format": [None, str],
    "ax": [None, HasMethods("imshow", description="a matplotlib Axes")],
    "colorbar": [BOOLEAN], "im_kw": [None, dict], "text_kw": [None, dict],
    # "auto": the matrix's name (with its weighting and normalization from from_*); None: none
    "title": [None, str],
    # With normalize: each cell's count under its normalized value.
    "include_counts": [BOOLEAN],
}
# What a confusion-matrix Display's from_predictions and from_estimator take besides their
# inputs and their builder's own keywords: the classes, the layout, the drawing.
DISPLAY_BUILD = {
    "labels": [None, ARRAY], "sample_weight": [None, ARRAY], "normalize": NORMALIZE,
    "display_labels": [None, ARRAY], "order": [None, Options("test-training")],
    "y_train": [None, ARRAY], **DISPLAY_PLOT,
    "include_values": [None, BOOLEAN],
}
# The builders' own keywords.
TRANSPORT_DISPLAY = {"weighting": WEIGHTING, "empty": EMPTY, "subpixel": [BOOLEAN]}
MLCM_DISPLAY = {"method": MLCM_METHOD}
FROM_PREDICTIONS = {**TARGETS, **DISPLAY_BUILD}
FROM_ESTIMATOR = {"estimator": ESTIMATOR, "X": [ARRAY], "y": [ARRAY],
                  "response_method": [Options("auto", "predict", "predict_proba")],
                  **DISPLAY_BUILD}
# The constructor of a confusion-matrix Display (scikit-learn's ConfusionMatrixDisplay's).
MATRIX_DISPLAY = {"confusion_matrix": [ARRAY], "display_labels": [None, ARRAY],
                  "column_labels": [None, ARRAY]}
FIGSIZE = {"figsize": [None, FigureSize()]}
# The multi-panel Displays draw on one Axes, a sequence of Axes or a Figure (or SubFigure).
PANELS_AX = {"ax": [None, HasMethods("plot", description="a matplotlib Axes"), ARRAY,
                    HasMethods("add_subplot", description="a matplotlib Figure or SubFigure")]}
# The critical-difference diagram draws on one Axes.
CRITICAL_DIFFERENCE_PLOT = {"ax": [None, HasMethods("plot", "text",
                                                    description="a matplotlib Axes")],
                            "title": [None, str]}
# The posterior of the difference draws on one Axes.
POSTERIOR_PLOT = {"ax": [None, HasMethods("plot", "fill_between",
                                          description="a matplotlib Axes")],
                  "title": [None, str]}
# The posterior of a comparison over data sets on a triangle draws on one Axes.
SIMPLEX_PLOT = {"ax": [None, HasMethods("scatter", "add_patch",
                                        description="a matplotlib Axes")],
                "max_points": [POSITIVE_INT], "title": [None, str]}
# A forest plot of scores and their intervals draws on one Axes.
FOREST_PLOT = {"ax": [None, HasMethods("plot", "hlines", description="a matplotlib Axes")],
               "title": [None, str]}
