"""Quantification: the errors of a prevalence estimate, scorers, protocols and audit."""
