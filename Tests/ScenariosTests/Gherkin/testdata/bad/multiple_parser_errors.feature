
invalid line here

Feature: Multiple parser errors

  Scenario: minimalistic
    Given the minimalism

another invalid line here
