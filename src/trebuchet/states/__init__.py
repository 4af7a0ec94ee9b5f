"""`trebuchet states`: the states a spec's handles reach by its own calls, explored and written as values made by calls."""
