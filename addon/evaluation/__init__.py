"""`plainview eval`: extraction scored against datasets with ground truth."""
