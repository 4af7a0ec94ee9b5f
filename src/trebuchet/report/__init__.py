"""The report: rates and the report's model, its pages and figures, compare and export."""
