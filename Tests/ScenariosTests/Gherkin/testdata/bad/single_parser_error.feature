
invalid line here

Feature: Single parser error

  Scenario: minimalistic
    Given the minimalism
