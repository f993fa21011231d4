# pytest configuration: the package under test is the build tree's (PYTHONPATH=<build>/python,
# set by ctest python_tests; docs/python.md).
