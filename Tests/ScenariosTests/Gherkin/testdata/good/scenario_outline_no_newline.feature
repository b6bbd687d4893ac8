Feature: Minimal Scenario Outline

Scenario Outline: minimalistic
    Given the <what>

Examples:
  | what       |
  | minimalism |