"""Reading one confusion matrix: its most-confused pairs and its class rankings."""
