"""What tells good measures from bad: the property audit and measure inconsistency."""
