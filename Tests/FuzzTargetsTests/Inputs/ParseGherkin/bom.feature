Feature: bom
  Scenario: s
    Given the program "true"
