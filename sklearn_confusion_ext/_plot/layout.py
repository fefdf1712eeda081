"""What every Display does with many classes: class names on the axes and figure sizes."""

import math
import os
import textwrap

import numpy as np

from .._core.params import quoted

# A class name needs this many times the font size along its axis (its line and a gap).
_NAME_SPACING = 1.3
# Longer class names are cut in the middle, with an ellipsis.
MAX_NAME_LENGTH = 20


def short_name(name):
    """``name`` as a str of at most :data:`MAX_NAME_LENGTH` characters: a longer one keeps
    its start and its end around an ellipsis, since names often differ only at their end
    ("class 17", "class 18")."""
    name = str(name)
    if len(name) <= MAX_NAME_LENGTH:
        return name
    end = (MAX_NAME_LENGTH - 1) // 2
    return name[:MAX_NAME_LENGTH - 1 - end] + "\u2026" + name[-end:]


def short_names(names):
    """:func:`short_name` of each of ``names``, unless two would then read the same (names
    that differ in the middle: "type 13, coastal", "type 15, coastal"): then each keeps a
    window from a little before the part all names share at their start, with ellipses
    where it was cut. Names that no window of the length tells apart are cut as before."""
    names = [str(name) for name in names]
    shortened = [short_name(name) for name in names]
    if len(set(shortened)) == len(set(names)):
        return shortened
    shared = len(os.path.commonprefix(names))
    windows = [_window(name, shared) for name in names]
    return windows if len(set(windows)) == len(set(names)) else shortened


def _window(name, shared, context=6):
    """At most :data:`MAX_NAME_LENGTH` characters of ``name`` from ``context`` characters
    before position ``shared`` (or as late as the end allows), ellipses marking the cuts."""
    if len(name) <= MAX_NAME_LENGTH:
        return name
    start = max(0, min(shared - context, len(name) - MAX_NAME_LENGTH + 1))
    room = MAX_NAME_LENGTH - (start > 0)
    if start + room < len(name):
        room -= 1
    window = name[start:start + room]
    return ("\u2026" if start else "") + window + \
        ("\u2026" if start + room < len(name) else "")


def tick_step(ax, axis, n_names):
    """Name every ``tick_step``-th class, so that the names written across ``axis`` (y
    names, and rotated x names) do not overlap."""
    length = (ax.bbox.height if axis == "y" else ax.bbox.width) * 72 / ax.figure.dpi
    room = max(1, int(length / (_NAME_SPACING * _font_size())))
    return max(1, math.ceil(n_names / room))


def _font_size():
    """The tick labels' font size in points."""
    from matplotlib import rcParams
    from matplotlib.font_manager import FontProperties

    return FontProperties(size=rcParams["xtick.labelsize"]).get_size_in_points()


def set_class_ticks(ax, axis, names, rotation="auto"):
    """Name the classes at positions 0, 1, ... of ``ax``'s ``axis`` ("x" or "y").

    Names are shortened; when they cannot all be written without overlapping, every k-th
    class is named.
    ``rotation`` of x names: "auto" keeps them horizontal when they fit side by side, else
    turns them 45 degrees (90 above 10 names); "horizontal", "vertical" or degrees.
    """
    step = tick_step(ax, axis, len(names))
    positions = np.arange(0, len(names), step)
    shortened = short_names(names)
    shown = [shortened[i] for i in positions]
    if axis == "y":
        ax.set_yticks(positions, shown)
        return
    if rotation == "auto":
        rotation = 0 if _fit_side_by_side(ax, shown) else 45 if len(shown) <= 10 else 90
    ax.set_xticks(positions, shown)
    rotation = {"horizontal": 0, "vertical": 90}.get(rotation, rotation)
    for label in ax.get_xticklabels():
        label.set_rotation(rotation)
        if 0 < rotation < 90:  # the end of a slanted name sits under its tick
            label.set_horizontalalignment("right")
            label.set_rotation_mode("anchor")


def _fit_side_by_side(ax, names):
    """Whether ``names`` written horizontally fit in the width of ``ax`` (a rough measure:
    a character is about 0.6 of the font size wide)."""
    if not names:
        return True
    width = ax.bbox.width * 72 / ax.figure.dpi  # points
    font = _font_size()
    needed = sum(0.6 * font * len(name) + font for name in names)
    return needed <= width


# A title's character is about this many times its font size wide (DejaVu Sans: 0.52).
_TITLE_CHARACTER = 0.55


def fit_title(ax, title):
    """Set ``title`` on ``ax`` so that it fits the width of ``ax``: a title wider than its
    Axes runs over the neighbouring Axes or colour bar where Displays share a figure. Its
    font is made smaller first (to 0.7 of its size, 7 points at least), then its lines are
    wrapped at spaces, and a word still too long makes the font smaller again (6 points at
    least). A rough measure (a character is about 0.55 of the font size wide), of the
    width ``ax`` has when the title is set: draw the colour bar first (a layout engine
    may widen the Axes when the figure is drawn, never narrow them below it)."""
    from matplotlib import rcParams
    from matplotlib.font_manager import FontProperties

    text = ax.set_title(title or "")
    if not title:
        return text
    width = ax.bbox.width * 72 / ax.figure.dpi  # points
    size = FontProperties(size=rcParams["axes.titlesize"]).get_size_in_points()
    lines = str(title).split("\n")
    longest = max(map(len, lines))
    smallest = max(7.0, 0.7 * size)
    if longest * _TITLE_CHARACTER * size <= width:
        return text
    if longest * _TITLE_CHARACTER * smallest <= width:
        text.set_fontsize(width / (_TITLE_CHARACTER * longest))
        return text
    per_line = max(8, int(width / (_TITLE_CHARACTER * smallest)))
    lines = [wrapped for line in lines
             for wrapped in (textwrap.wrap(line, per_line, break_long_words=False) or [""])]
    longest = max(map(len, lines))
    text.set_fontsize(max(6.0, min(smallest, width / (_TITLE_CHARACTER * longest))))
    text.set_text("\n".join(lines))
    return text


def grown_size(n_classes, base, per_class, cap):
    """A figure size growing with the class count: ``base + per_class * n_classes`` on each
    side, within ``cap`` (width, height) inches."""
    return tuple(min(float(b + p * n_classes), c) for b, p, c in zip(base, per_class, cap))


def panel_axes(ax, n_panels, what, figsize, default_size, arrange):
    """The figure and the ``n_panels`` Axes a multi-panel Display draws on.

    ``ax`` is None (a new figure of ``figsize``, or ``default_size``), a Figure or
    SubFigure (filled by ``arrange(container)``, which returns the panels' Axes), a
    sequence of exactly ``n_panels`` Axes, or one Axes: the panel itself when one panel is
    drawn, else the box the panels are drawn in (as scikit-learn's
    ``PartialDependenceDisplay`` takes one Axes): the Axes is hidden and a SubFigure in
    its place is filled by ``arrange`` (see :func:`bounding_axes`). ``what`` names the
    panels in the error.
    """
    import matplotlib.pyplot as plt
    from matplotlib.axes import Axes

    if ax is None:
        fig = plt.figure(figsize=tuple(default_size if figsize is None else figsize),
                         layout="constrained")
        return fig, list(arrange(fig))
    if figsize is not None:
        raise ValueError("figsize sizes a new figure and cannot be given with ax; size "
                         "the figure of ax instead.")
    if not isinstance(ax, Axes) and hasattr(ax, "add_subplot"):  # a Figure or SubFigure
        return ax.figure, list(arrange(ax))  # a SubFigure's figure is the whole Figure
    if bounding_axes(ax, n_panels) is not None:
        return ax.figure.figure, list(arrange(_box(ax)))
    axes = [ax] if isinstance(ax, Axes) else list(np.ravel(np.asarray(ax, dtype=object)))
    if not all(isinstance(one, Axes) for one in axes):
        raise TypeError(f"ax must be a matplotlib Axes, a sequence of Axes, a Figure or a "
                        f"SubFigure; got {quoted(ax)}.")
    if len(axes) != n_panels:
        raise ValueError(f"ax holds {len(axes)} Axes but this display draws {n_panels} "
                         f"panel(s) ({what}): pass one Axes (the box to draw them in), "
                         f"{n_panels} Axes, or a Figure or SubFigure to draw them in.")
    return axes[0].figure.figure, axes  # the whole Figure, of an Axes in a SubFigure too


def bounding_axes(ax, n_panels):
    """``ax`` where it is one Axes holding several panels (the box they are drawn in),
    else None: what the Displays keep as ``bounding_ax_``."""
    from matplotlib.axes import Axes

    return ax if isinstance(ax, Axes) and n_panels != 1 else None


class _Box:
    """The place of one Axes as a container of panels: ``subplots`` lays a grid out in that
    place (nested in its grid cell, so a constrained layout keeps arranging it; an Axes
    placed by position, with ``fig.add_axes``, gives its position), as a Figure's
    ``subplots`` lays one out in the whole figure. The Axes is hidden."""

    def __init__(self, ax):
        from matplotlib.gridspec import GridSpec

        self.figure = ax.figure.figure
        self.spec = ax.get_subplotspec()
        if self.spec is None:
            box = ax.get_position()
            self.spec = GridSpec(1, 1, figure=self.figure, left=box.x0, right=box.x1,
                                 bottom=box.y0, top=box.y1)[0]
        ax.set_axis_off()

    def subplots(self, nrows=1, ncols=1, *, sharex=False, sharey=False, squeeze=True,
                 width_ratios=None, height_ratios=None):
        from matplotlib.gridspec import GridSpecFromSubplotSpec

        # Room for each panel's title and class names, which a figure without a layout
        # engine does not make by itself.
        room = {} if self.figure.get_layout_engine() is not None else \
            {"hspace": 0.6, "wspace": 0.45}
        grid = GridSpecFromSubplotSpec(nrows, ncols, subplot_spec=self.spec,
                                       width_ratios=width_ratios,
                                       height_ratios=height_ratios, **room)
        return grid.subplots(sharex=sharex, sharey=sharey, squeeze=squeeze)


def _box(ax):
    """The :class:`_Box` of ``ax``."""
    return _Box(ax)
