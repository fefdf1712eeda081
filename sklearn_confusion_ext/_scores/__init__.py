"""Every score, by role: formulas off a matrix, y_true/y_pred faces, reports, scorers, names."""
