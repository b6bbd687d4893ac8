#language:no-such

Feature: Minimal

  Scenario: minimalistic
    Given the minimalism
