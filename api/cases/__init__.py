"""Cases: the regression case files, their runner and report, their database store and moved cases."""
