"""The confusion matrices: transport (and its sub-pixel bounds), multi-label, labelled."""
