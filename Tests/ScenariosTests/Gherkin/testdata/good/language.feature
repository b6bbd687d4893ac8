#language:en

Feature: Explicit language specification

  Scenario: minimalistic
    Given the minimalism
