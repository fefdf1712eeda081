"""Calibration: reliability curves, the expected calibration error, the Brier score's parts."""
