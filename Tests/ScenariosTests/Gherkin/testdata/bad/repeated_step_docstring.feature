Feature: Repeated step DocString

  Scenario: repeated DocString
    Given a step with repeated docstrings
"""
one
"""
"""
two
"""
