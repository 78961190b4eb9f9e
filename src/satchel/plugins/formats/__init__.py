"""One module per plugin manifest format: files in, a `Plugin` and diagnostics out."""
