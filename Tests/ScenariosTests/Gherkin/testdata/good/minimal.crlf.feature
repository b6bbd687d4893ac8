Feature: Minimal with CRLF line endings

  Scenario: minimalistic
    Given the minimalism
