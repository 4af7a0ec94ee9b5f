"""The CRASH scale's judges over stored runs: Silent and Hindering, and the scale's targets."""
