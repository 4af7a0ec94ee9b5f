"""`trebuchet init`: a spec drafted from a library's headers."""
