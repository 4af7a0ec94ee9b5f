"""trebuchet.reports: metrics, figures, HTML and exports from a store."""
