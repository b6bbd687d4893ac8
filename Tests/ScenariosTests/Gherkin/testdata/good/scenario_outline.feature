Feature: Minimal Scenario Outline

  Scenario: minimalistic
    Given the <what>

    Examples:
      | what       |
      | minimalism |
