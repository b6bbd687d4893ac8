Feature:

  Rule:
  Scenario:
    Given text
